import assert from "node:assert/strict";
import { test } from "node:test";
import { addLocalPrompt, apply, emptyState, fixture, isViewState, setConfigValue } from "./load.mjs";

const SID = "s1";
const session = (extra = {}) => ({ type: "session", sessionId: SID, cwd: "/w", replaying: false, ...extra });
const upd = (update) => ({ type: "update", sessionId: SID, update });
const text = (t) => ({ type: "text", text: t });

function run(msgs, state = emptyState()) {
  for (const m of msgs) apply(state, m);
  return state;
}

test("the recorded live turn folds into the expected transcript", async () => {
  const fx = await fixture();
  const s = run(fx.live);
  assert.deepEqual(
    s.items.map((i) => i.kind),
    ["thought", "agent", "tool", "tool", "tool", "permission", "tool", "permission", "tool", "agent"],
  );
  const tools = s.items.filter((i) => i.kind === "tool");
  assert.deepEqual(tools.map((t) => t.call.status), ["completed", "completed", "completed", "completed", "completed"]);
  assert.deepEqual(tools.map((t) => t.call.kind), ["think", "read", "edit", "execute", "think"]);
  const last = s.items.at(-1);
  assert.match(last.text, /^Done\. `main` now prints a \*\*friendlier\*\* greeting:\n\n```go\nfunc main\(\) \{\n\tfmt\.Println\("hello, world"\)\n\}\n```\n/);
  assert.equal(last.streaming, false, "the turn end closes the stream");
  assert.equal(s.turn, "idle");
  assert.equal(s.plan.length, 3);
  assert.equal(s.usage.used, 1300);
  assert.equal(s.title, fx.prompt);
  assert.ok(s.commands.length > 0);
  assert.ok(s.items.filter((i) => i.kind === "permission").every((p) => p.answered?.optionId === "proceed_once"));
  assert.ok(isViewState(JSON.parse(JSON.stringify(s))), "the model survives setState's JSON round trip");
});

test("replaying the same session twice gives the same transcript (session resets)", async () => {
  const fx = await fixture();
  const s = run(fx.replay);
  const once = JSON.stringify(s.items.map(({ id, rev, ...rest }) => rest));
  run(fx.replay, s);
  assert.equal(JSON.stringify(s.items.map(({ id, rev, ...rest }) => rest)), once);
  assert.equal(s.items[0].kind, "user");
  assert.equal(s.items[0].text, fx.prompt);
  assert.equal(s.replaying, false, "replayDone ends the replay");
  assert.ok(s.commands.length > 0, "commands that arrive after replayDone are kept");
});

test("chunks join by kind and messageId", () => {
  const s = run([
    session(),
    upd({ sessionUpdate: "agent_message_chunk", content: text("Hel") }),
    upd({ sessionUpdate: "agent_message_chunk", content: text("lo") }),
    upd({ sessionUpdate: "agent_thought_chunk", content: text("hmm") }),
    upd({ sessionUpdate: "agent_message_chunk", content: text("A"), messageId: "m1" }),
    upd({ sessionUpdate: "agent_message_chunk", content: text("B"), messageId: "m1" }),
    upd({ sessionUpdate: "agent_message_chunk", content: text("C"), messageId: "m2" }),
    upd({ sessionUpdate: "agent_message_chunk", content: { type: "resource_link", uri: "file:///w/a.go", name: "a.go" } }),
  ]);
  assert.deepEqual(s.items.map((i) => [i.kind, i.text, i.streaming]), [
    ["agent", "Hello", false],
    ["thought", "hmm", false],
    ["agent", "AB", false],
    ["agent", "C[a.go](file:///w/a.go)", true],
  ]);
});

test("a local prompt absorbs its echo but not a different user message", () => {
  const s = run([session(), { type: "turn", sessionId: SID, state: "running" }]);
  addLocalPrompt(s, "fix it", [{ uri: "file:///w/a.go", label: "a.go" }]);
  run([
    upd({ sessionUpdate: "user_message_chunk", content: text("fix it") }),
    upd({ sessionUpdate: "user_message_chunk", content: { type: "resource_link", uri: "file:///w/a.go", name: "a.go" } }),
  ], s);
  assert.equal(s.items.length, 1);
  run([upd({ sessionUpdate: "user_message_chunk", content: text("something else") })], s);
  assert.equal(s.items.length, 2);
  assert.equal(s.items[1].text, "something else");
});

test("replayed user messages collect resource blocks as mentions", () => {
  const s = run([
    session({ replaying: true }),
    upd({ sessionUpdate: "user_message_chunk", content: text("look at ") }),
    upd({ sessionUpdate: "user_message_chunk", content: { type: "resource", resource: { uri: "file:///w/dir/b.ts", text: "x" } } }),
  ]);
  assert.equal(s.items.length, 1);
  assert.equal(s.items[0].text, "look at ");
  assert.deepEqual(s.items[0].mentions, [{ uri: "file:///w/dir/b.ts", label: "b.ts" }]);
});

test("tool updates patch only the fields they carry; content and locations replace", () => {
  const s = run([
    session(),
    upd({ sessionUpdate: "tool_call", toolCallId: "t", title: "Read a", kind: "read", locations: [{ path: "/w/a", line: 3 }] }),
    upd({ sessionUpdate: "tool_call_update", toolCallId: "t", status: "in_progress", content: [{ type: "content", content: text("x") }] }),
    upd({ sessionUpdate: "tool_call_update", toolCallId: "t", status: "completed", content: [{ type: "terminal", terminalId: "term" }] }),
    upd({ sessionUpdate: "tool_call_update", toolCallId: "unknown", status: "failed" }),
  ]);
  const [a, b] = s.items;
  assert.equal(a.call.title, "Read a");
  assert.equal(a.call.status, "completed");
  assert.deepEqual(a.call.locations, [{ path: "/w/a", line: 3 }]);
  assert.deepEqual(a.call.content, [{ type: "terminal", terminalId: "term" }]);
  assert.equal(b.call.title, "Tool call", "an update for an unseen call still gets a card");
  assert.equal(b.call.status, "failed");
});

test("a cancelled turn marks unfinished tool calls and open permissions", () => {
  const s = run([
    session(),
    { type: "turn", sessionId: SID, state: "running" },
    upd({ sessionUpdate: "tool_call", toolCallId: "t", title: "rm", kind: "execute" }),
    { type: "permission", requestId: "p", sessionId: SID, toolCall: { toolCallId: "t", title: "rm" }, options: [{ optionId: "y", name: "Yes", kind: "allow_once" }], inDiffEditor: false },
    { type: "permission", requestId: "p", sessionId: SID, toolCall: { toolCallId: "t", title: "rm" }, options: [], inDiffEditor: false },
    { type: "turn", sessionId: SID, state: "idle", stopReason: "cancelled" },
  ]);
  assert.deepEqual(s.items.map((i) => i.kind), ["tool", "permission", "system"], "a re-sent permission is not shown twice");
  assert.equal(s.items[0].call.status, "cancelled");
  assert.deepEqual(s.items[1].answered, { optionId: null });
  assert.equal(s.items[2].text, "Cancelled.");
});

test("a failed turn shows its error; end_turn shows nothing", () => {
  const s = run([session(), { type: "turn", sessionId: SID, state: "idle", stopReason: "end_turn" }]);
  assert.equal(s.items.length, 0);
  run([{ type: "turn", sessionId: SID, state: "idle", error: "model unreachable" }], s);
  assert.equal(s.items[0].sysKind, "error");
  assert.match(s.items[0].text, /model unreachable/);
});

test("updates for another session are ignored", () => {
  const s = run([session(), { type: "update", sessionId: "other", update: { sessionUpdate: "agent_message_chunk", content: text("x") } }]);
  assert.equal(s.items.length, 0);
});

test("modes and config options follow updates and local picks", () => {
  const modeOpt = { type: "select", id: "mode", name: "Mode", category: "mode", currentValue: "default", options: [{ value: "default", name: "D" }, { value: "plan", name: "P" }] };
  const s = run([session({ configOptions: [modeOpt], modes: { currentModeId: "default", availableModes: [] } })]);
  run([upd({ sessionUpdate: "current_mode_update", currentModeId: "plan" })], s);
  assert.equal(s.configOptions[0].currentValue, "plan");
  assert.equal(s.modes.currentModeId, "plan");
  setConfigValue(s, "mode", "default");
  assert.equal(s.modes.currentModeId, "default");
  run([upd({ sessionUpdate: "config_option_update", configOptions: [{ ...modeOpt, currentValue: "plan" }] })], s);
  assert.equal(s.configOptions[0].currentValue, "plan");
});

test("status messages drive the banner", () => {
  const s = run([{ type: "status", state: "starting" }]);
  assert.equal(s.banner.kind, "status");
  run([{ type: "status", state: "error", message: "boom" }], s);
  assert.deepEqual(s.banner, { kind: "error", text: "boom", restart: true });
  run([{ type: "status", state: "ready" }], s);
  assert.equal(s.banner, null);
});

test("compaction lines are upserted by id and collect their summary", () => {
  const s = run([
    session(),
    upd({ sessionUpdate: "compaction_update", compactionId: "c", status: "in_progress" }),
    upd({ sessionUpdate: "compaction_summary_chunk", compactionId: "c", content: text("sum") }),
    upd({ sessionUpdate: "compaction_summary_chunk", compactionId: "c", content: text("mary") }),
    upd({ sessionUpdate: "compaction_update", compactionId: "c", status: "failed", error: "too big" }),
  ]);
  assert.equal(s.items.length, 1);
  assert.equal(s.items[0].text, "Compaction failed: too big");
  assert.equal(s.items[0].detail, "summary");
});

test("session_info_update patches the title: omitted keeps it, null clears it", () => {
  const s = run([session({ title: "t0" }), upd({ sessionUpdate: "session_info_update", updatedAt: "2026-01-01T00:00:00Z" })]);
  assert.equal(s.title, "t0");
  run([upd({ sessionUpdate: "session_info_update", title: null })], s);
  assert.equal(s.title, null);
});

test("a rejected or cancelled call is not shown as failed (_meta outcome, or the result text)", () => {
  const call = (id, extra = {}) => upd({ sessionUpdate: "tool_call", toolCallId: id, title: "Edit", kind: "edit", status: "pending", ...extra });
  const failed = (id, extra = {}) => upd({ sessionUpdate: "tool_call_update", toolCallId: id, status: "failed", ...extra });
  const s = run([
    session(),
    call("a"), failed("a", { _meta: { companion: { outcome: "rejected" } } }),
    call("b"), failed("b", { _meta: { companion: { outcome: "cancelled" } } }),
    call("c"), failed("c", { rawOutput: "The user rejected this call." }),
    call("d"), failed("d", { content: [{ type: "content", content: text("The user cancelled this tool call.") }] }),
    call("e"), failed("e", { content: [{ type: "content", content: text("exit status 1") }] }),
  ]);
  const st = Object.fromEntries(s.items.filter((i) => i.kind === "tool").map((t) => [t.call.toolCallId, t.call.status]));
  assert.deepEqual(st, { a: "rejected", b: "cancelled", c: "rejected", d: "cancelled", e: "failed" });
});

test("a call loop detection blocked is a 'blocked' card, and the messages around it stay apart", () => {
  const why = "Blocked: the same call was repeated 5 times; try something else.";
  const s = run([
    session(),
    upd({ sessionUpdate: "agent_message_chunk", content: text("Reading it again.") }),
    upd({
      sessionUpdate: "tool_call",
      toolCallId: "c9",
      title: "read_file a.txt",
      kind: "read",
      status: "failed",
      content: [{ type: "content", content: text(why) }],
      _meta: { companion: { outcome: "blocked" } },
    }),
    upd({ sessionUpdate: "agent_message_chunk", content: text("I will stop repeating.") }),
  ]);
  assert.deepEqual(s.items.map((i) => i.kind), ["agent", "tool", "agent"]);
  assert.equal(s.items[1].call.status, "blocked");
  assert.deepEqual(s.items.filter((i) => i.kind === "agent").map((i) => i.text), ["Reading it again.", "I will stop repeating."]);
});

test("an update of an earlier call ends the message streaming before it", () => {
  const s = run([
    session(),
    upd({ sessionUpdate: "tool_call", toolCallId: "c1", title: "grep", kind: "search", status: "completed" }),
    upd({ sessionUpdate: "agent_message_chunk", content: text("First message.") }),
    upd({ sessionUpdate: "tool_call_update", toolCallId: "c1", status: "failed", _meta: { companion: { outcome: "blocked" } } }),
    upd({ sessionUpdate: "agent_message_chunk", content: text("Second message.") }),
  ]);
  assert.deepEqual(s.items.map((i) => i.kind), ["tool", "agent", "agent"]);
  assert.equal(s.items[0].call.status, "blocked");
});

test("a prompt's images show on the local message and absorb their echo", () => {
  const img = { mimeType: "image/png", data: "iVBORw0KGgo=" };
  const s = run([session(), { type: "status", state: "ready", acceptsImages: true }]);
  assert.equal(s.acceptsImages, true);
  addLocalPrompt(s, "what is this?", [], [img]);
  run([upd({ sessionUpdate: "user_message_chunk", content: text("what is this?") }), upd({ sessionUpdate: "user_message_chunk", content: { type: "image", ...img } })], s);
  assert.deepEqual(s.items.map((i) => i.kind), ["user"]);
  assert.deepEqual(s.items[0].images, ["data:image/png;base64,iVBORw0KGgo="]);
  // A replayed message gets its image back from the echo alone.
  const r = run([session(), upd({ sessionUpdate: "user_message_chunk", content: text("again") }), upd({ sessionUpdate: "user_message_chunk", content: { type: "image", ...img } })]);
  assert.deepEqual(r.items.map((i) => [i.kind, i.text, i.images]), [["user", "again", ["data:image/png;base64,iVBORw0KGgo="]]]);
});

test("a replay shows what the live turn showed: answered permissions, and a command's output in place of its gone terminal", async () => {
  const fx = await fixture();
  const shape = (s) => s.items.filter((i) => i.kind !== "user").map((i) => {
    if (i.kind === "permission") return `permission ${i.title} ${i.answered?.optionId}`;
    if (i.kind === "tool") return `tool ${i.call.kind} ${i.call.status}`;
    return i.kind;
  });
  const live = run(fx.live);
  const replay = run(fx.replay);
  assert.deepEqual(shape(replay), shape(live));
  const shell = replay.items.find((i) => i.kind === "tool" && i.call.kind === "execute");
  assert.deepEqual(shell.call.content.map((c) => c.type), ["content"], "no link to a terminal that is gone");
  assert.match(shell.call.content[0].content.text, /hello, world[\s\S]*Exit code: 0/);
  const answered = replay.items.filter((i) => i.kind === "permission");
  assert.deepEqual(answered.map((p) => p.options.find((o) => o.optionId === p.answered.optionId)?.name), ["Allow this time", "Allow this time"]);
});

test("a replayed turn end shows the line the live turn ended with", () => {
  const end = (turnEnd) => upd({ sessionUpdate: "session_info_update", _meta: { companion: { turnEnd } } });
  const s = run([
    session({ replaying: true }),
    upd({ sessionUpdate: "agent_message_chunk", content: text("Working on it") }),
    end({ stopReason: "cancelled" }),
    upd({ sessionUpdate: "agent_message_chunk", content: text("Next") }),
    end({ stopReason: "end_turn", error: "The model is unreachable." }),
    end({ stopReason: "end_turn" }),
    { type: "replayDone", sessionId: SID },
  ]);
  assert.deepEqual(s.items.map((i) => [i.kind, i.sysKind ?? null, i.text]), [
    ["agent", null, "Working on it"],
    ["system", "turn-end", "Cancelled."],
    ["agent", null, "Next"],
    ["system", "error", "The turn failed: The model is unreachable."],
  ]);
  assert.equal(s.title, null, "a turn end is no title change");
});

test("a replayed dismissed permission shows as dismissed", () => {
  const s = run([
    session({ replaying: true }),
    upd({ sessionUpdate: "tool_call", toolCallId: "c1", title: "Run ls", kind: "execute", status: "pending" }),
    upd({ sessionUpdate: "tool_call_update", toolCallId: "c1", _meta: { companion: { permission: { title: "Run ls", options: [{ optionId: "proceed_once", name: "Allow this time", kind: "allow_once" }] } } } }),
    upd({ sessionUpdate: "tool_call_update", toolCallId: "c1", status: "failed", _meta: { companion: { outcome: "cancelled" } } }),
  ]);
  assert.deepEqual(s.items.map((i) => i.kind), ["tool", "permission"]);
  assert.equal(s.items[1].answered.optionId, null);
  assert.equal(s.items[1].toolKind, "execute");
  assert.equal(s.items[0].call.status, "cancelled");
});
