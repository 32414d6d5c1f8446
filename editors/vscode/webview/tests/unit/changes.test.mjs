import assert from "node:assert/strict";
import { test } from "node:test";
import { apply, decideChange, emptyState, turnChanges } from "./load.mjs";

const SID = "s1";
const upd = (update) => ({ type: "update", sessionId: SID, update });
const diff = (path, oldText, newText) => ({ type: "diff", path, oldText, newText });
const edit = (id, ...content) => [
  upd({ sessionUpdate: "tool_call", toolCallId: id, title: "Edit", kind: "edit", status: "pending" }),
  upd({ sessionUpdate: "tool_call_update", toolCallId: id, status: "completed", content }),
];
const turn = (...updates) => [
  upd({ sessionUpdate: "user_message_chunk", content: { type: "text", text: "go" } }),
  { type: "turn", sessionId: SID, state: "running" },
  ...updates,
  { type: "turn", sessionId: SID, state: "idle", stopReason: "end_turn" },
];

function run(msgs, state = emptyState()) {
  for (const m of msgs) apply(state, m);
  return state;
}

test("the list holds each file the turn changed once: its text before the first edit, after the last", () => {
  const s = run([
    { type: "session", sessionId: SID, cwd: "/w", replaying: false },
    ...turn(
      ...edit("c1", diff("/w/a.txt", "one\n", "two\n")),
      ...edit("c2", diff("/w/new.txt", null, "fresh\n")),
      ...edit("c3", diff("/w/a.txt", "two\n", "three\n")),
      upd({ sessionUpdate: "tool_call", toolCallId: "c4", title: "Edit", kind: "edit", status: "pending", content: [diff("/w/b.txt", "x", "y")] }),
      upd({ sessionUpdate: "tool_call_update", toolCallId: "c4", status: "failed", _meta: { companion: { outcome: "rejected" } } }),
    ),
  ]);
  assert.deepEqual(turnChanges(s).map(({ path, oldText, newText }) => [path, oldText, newText]), [
    ["/w/a.txt", "one\n", "three\n"],
    ["/w/new.txt", null, "fresh\n"],
  ]);

  assert.deepEqual(decideChange(s, "/w/new.txt", "reverted").map((f) => f.path), ["/w/new.txt"]);
  assert.deepEqual(turnChanges(s).map((f) => f.decided ?? null), [null, "reverted"]);
  assert.deepEqual(decideChange(s, null, "kept").map((f) => f.path), ["/w/a.txt"], "all = the files not decided yet");
  assert.equal(s.changes, null, "the list closes once every file is decided");
});

test("no list for a turn without edits, for a replay, or once the next turn starts", () => {
  const s = run([{ type: "session", sessionId: SID, cwd: "/w", replaying: false }, ...turn(upd({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "hi" } }))]);
  assert.deepEqual(turnChanges(s), []);
  run(turn(...edit("c1", diff("/w/a.txt", "one\n", "two\n"))), s);
  assert.equal(turnChanges(s).length, 1);
  run([upd({ sessionUpdate: "user_message_chunk", content: { type: "text", text: "next" } }), { type: "turn", sessionId: SID, state: "running" }], s);
  assert.deepEqual(turnChanges(s), [], "a new turn replaces the list");

  const r = run([{ type: "session", sessionId: SID, cwd: "/w", replaying: true }, ...edit("c1", diff("/w/a.txt", "one\n", "two\n")), { type: "replayDone", sessionId: SID }]);
  assert.deepEqual(turnChanges(r), []);
  run([{ type: "session", sessionId: "s2", cwd: "/w", replaying: false }], s);
  assert.equal(s.changes, null, "a new session starts without a list");
});
