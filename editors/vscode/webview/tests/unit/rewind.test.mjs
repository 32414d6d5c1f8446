import assert from "node:assert/strict";
import { test } from "node:test";
import { addLocalPrompt, apply, askRewind, cancelRewind, confirmRewind, emptyState, promptIndex, restoredText, rewindable } from "./load.mjs";

const SID = "s1";
const text = (t) => ({ type: "text", text: t });
const user = (t, messageId) => ({ type: "update", sessionId: SID, update: { sessionUpdate: "user_message_chunk", content: text(t), messageId } });
const agent = (t) => ({ type: "update", sessionId: SID, update: { sessionUpdate: "agent_message_chunk", content: text(t) } });

/** chat is a session with two replayed prompts and one sent now, the agent able to rewind unless told. */
function chat(canRewind = true) {
  const s = emptyState();
  for (const m of [
    { type: "status", state: "ready", canRewind },
    { type: "session", sessionId: SID, cwd: "/w", replaying: true },
    user("one", "u1"), agent("ok 1"), user("two", "u2"), agent("ok 2"),
    { type: "replayDone", sessionId: SID },
  ]) apply(s, m);
  addLocalPrompt(s, "three", []);
  apply(s, { type: "turn", sessionId: SID, state: "running" });
  apply(s, agent("ok 3"));
  apply(s, { type: "turn", sessionId: SID, state: "idle", stopReason: "end_turn" });
  return s;
}

const users = (s) => s.items.filter((i) => i.kind === "user");

test("rewind is offered only when the agent advertised it and no turn runs or loads", () => {
  assert.equal(rewindable(chat(false)), false);
  const s = chat();
  assert.equal(rewindable(s), true);
  apply(s, { type: "turn", sessionId: SID, state: "running" });
  assert.equal(rewindable(s), false, "a running turn hides it");
  apply(s, { type: "turn", sessionId: SID, state: "idle" });
  apply(s, { type: "session", sessionId: "s2", cwd: "/w", replaying: true });
  assert.equal(rewindable(s), false, "a replay hides it");
  assert.equal(s.canRewind, true, "a new session keeps the agent's capability");
  apply(s, { type: "status", state: "restarting" });
  assert.equal(s.canRewind, false, "a status without it takes it away");
});

test("the prompt index counts every user message, replayed and sent", () => {
  const s = chat();
  assert.deepEqual(users(s).map((u) => promptIndex(s, u.id)), [0, 1, 2]);
  assert.equal(promptIndex(s, s.items.find((i) => i.kind === "agent").id), -1);
});

test("ask shows one confirmation, cancel closes it, confirm answers the index once", () => {
  const s = chat();
  const [, second, third] = users(s);
  askRewind(s, third.id);
  askRewind(s, second.id);
  assert.deepEqual(users(s).map((u) => !!u.confirming), [false, true, false]);
  cancelRewind(s);
  assert.ok(users(s).every((u) => !u.confirming));
  askRewind(s, second.id);
  const rev = second.rev;
  assert.equal(confirmRewind(s, second.id), 1);
  assert.ok(second.rev > rev, "the message re-renders without its confirmation");
  assert.equal(second.confirming, undefined);
  assert.equal(rewindable(s), false, "no second rewind while one runs");
  assert.equal(confirmRewind(s, second.id), null);
});

test("ask is ignored when rewinding is not offered", () => {
  const s = chat(false);
  askRewind(s, users(s)[0].id);
  assert.ok(users(s).every((u) => !u.confirming));
  assert.equal(confirmRewind(s, users(s)[0].id), null);
});

test("an error ends the rewind and leaves the chat as it was", () => {
  const s = chat();
  const before = s.items.length;
  confirmRewind(s, users(s)[1].id);
  apply(s, { type: "error", message: "prompt 1 is past the end of the session." });
  assert.equal(rewindable(s), true);
  assert.equal(s.items.length, before);
  assert.equal(s.banner.text, "prompt 1 is past the end of the session.");
});

test("the fork replays, then the restored files show as a notice", () => {
  const s = chat();
  confirmRewind(s, users(s)[1].id);
  for (const m of [
    { type: "session", sessionId: "s2", cwd: "/w", replaying: true },
    { type: "update", sessionId: "s2", update: { sessionUpdate: "user_message_chunk", content: text("one") } },
    { type: "replayDone", sessionId: "s2" },
    { type: "rewound", sessionId: "s2", text: "two", mentions: [], restored: ["/w/a.txt", "/w/sub/b.txt"] },
  ]) apply(s, m);
  assert.deepEqual(s.items.map((i) => i.kind), ["user", "system"]);
  assert.equal(s.items[1].text, "Rewound. Restored 2 files to before that message: a.txt, b.txt.");
  assert.equal(rewindable(s), true);
});

test("restoredText names the files, at most five", () => {
  assert.equal(restoredText([]), "Rewound. No files needed restoring.");
  assert.equal(restoredText(["/w/a.txt"]), "Rewound. Restored 1 file to before that message: a.txt.");
  assert.match(restoredText(["1", "2", "3", "4", "5", "6", "7"].map((n) => `/w/${n}.go`)), /: 1\.go, 2\.go, 3\.go, 4\.go, 5\.go, 2 more\.$/);
});
