// Session lifecycle against the real agent: replay on a re-shown webview,
// session/list + session/load replay, restart after the child dies, cancel,
// the approval mode setting and config options.

import { test } from "node:test";
import assert from "node:assert/strict";
import type { ToWebview } from "../../src/webviewProtocol";
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { start, turnEnded } from "./helpers";

test("a re-shown webview gets the session and its transcript replayed", async (t) => {
  const { editor, controller } = await start(t, [{ chunks: [{ text: "First " }, { text: "answer." }] }]);
  await controller.handle({ type: "prompt", text: "hi", mentions: [] });
  await turnEnded(editor);
  const from = editor.posted.length;
  await controller.handle({ type: "ready" });
  const replay = editor.posted.slice(from);
  assert.equal(replay[0].type, "status");
  const session = replay[1] as ToWebview & { type: "session" };
  assert.equal(session.type, "session");
  assert.equal(session.replaying, true);
  assert.equal(session.sessionId, controller.currentSessionId);
  const texts = replay.flatMap((m) => {
    if (m.type !== "update") return [];
    const u = m.update;
    const isText = (u.sessionUpdate === "user_message_chunk" || u.sessionUpdate === "agent_message_chunk") && u.content.type === "text";
    return isText ? [`${u.sessionUpdate}:${(u.content as { text: string }).text}`] : [];
  });
  assert.deepEqual(texts, ["user_message_chunk:hi", "agent_message_chunk:First answer."]);
  assert.deepEqual(replay[replay.length - 1], { type: "replayDone", sessionId: session.sessionId });
});

test("session/list then session/load replays a stored conversation", async (t) => {
  const { editor, controller } = await start(t, [{ chunks: [{ text: "Stored answer." }] }]);
  await controller.handle({ type: "prompt", text: "remember me", mentions: [] });
  await turnEnded(editor);
  const first = controller.currentSessionId!;
  await controller.handle({ type: "newSession" });
  assert.notEqual(controller.currentSessionId, first);
  await controller.handle({ type: "listSessions" });
  const list = editor.posted.find((m): m is ToWebview & { type: "sessions" } => m.type === "sessions");
  assert.ok(list && !list.error, list?.error);
  assert.ok(list.sessions.some((s) => s.sessionId === first), "the first session is listed");
  const from = editor.posted.length;
  await controller.handle({ type: "loadSession", sessionId: first });
  const after = editor.posted.slice(from);
  const session = after.find((m): m is ToWebview & { type: "session" } => m.type === "session");
  assert.equal(session?.sessionId, first);
  assert.equal(session?.replaying, true);
  const done = after.findIndex((m) => m.type === "replayDone");
  assert.ok(done > 0);
  const replayed = after.slice(0, done).flatMap((m) =>
    m.type === "update" && m.update.sessionUpdate === "agent_message_chunk" && m.update.content.type === "text" ? [m.update.content.text] : [],
  );
  assert.equal(replayed.join(""), "Stored answer.");
  assert.ok(after.slice(0, done).some((m) => m.type === "update" && m.update.sessionUpdate === "user_message_chunk"));
  assert.equal(controller.currentSessionId, first);
});

test("the agent is restarted after it is killed, with the error shown, and the session goes on", async (t) => {
  const { editor, controller } = await start(t, [{ chunks: [{ text: "before" }] }, { chunks: [{ text: "after restart" }] }]);
  await controller.handle({ type: "prompt", text: "one", mentions: [] });
  await turnEnded(editor);
  const session = controller.currentSessionId;
  const pid = controller.supervisor.connection!.pid!;
  const from = editor.posted.length;
  process.kill(pid, "SIGKILL");
  const restarting = await editor.waitFor("a restarting status", () => editor.posted.slice(from).find((m) => m.type === "status" && m.state === "restarting"));
  assert.match((restarting as { message?: string }).message ?? "", /killed by SIGKILL/);
  assert.ok(editor.posted.slice(from).some((m) => m.type === "error" && /stopped unexpectedly/.test(m.message)));
  await editor.waitFor("ready again", () => editor.posted.slice(from).find((m) => m.type === "status" && m.state === "ready"));
  await editor.waitFor("a new process", () => controller.supervisor.connection && controller.supervisor.connection.pid !== pid);
  await editor.waitFor("the session resumed", () => editor.posted.slice(from).find((m) => m.type === "replayDone"));
  assert.equal(controller.currentSessionId, session);
  const from2 = editor.posted.length;
  await controller.handle({ type: "prompt", text: "two", mentions: [] });
  const end = await turnEnded(editor, from2);
  assert.equal(end.stopReason, "end_turn");
});

test("a missing binary is an error status, not a crash", async (t) => {
  const { ChatController } = await import("../../src/core/controller");
  const { FakeEditor } = await import("./helpers");
  const editor = new FakeEditor();
  const c = new ChatController(editor, {
    launch: async () => ({ command: "/nonexistent/companion", args: ["acp"], env: {}, cwd: "/" }),
    cwd: () => "/",
    approvalMode: () => "default",
  });
  t.after(() => c.dispose());
  await c.start();
  const status = editor.posted.find((m) => m.type === "status" && m.state === "error") as { message?: string } | undefined;
  assert.match(status?.message ?? "", /^Cannot start companion: \/nonexistent\/companion does not exist\. Set companion\.path/);
  assert.doesNotMatch(status?.message ?? "", /ENOENT|spawn/, "no raw spawn error");
  await c.handle({ type: "prompt", text: "hi", mentions: [] });
  const failed = editor.posted.find((m) => m.type === "promptFailed" && m.text === "hi") as { error: string } | undefined;
  assert.equal(failed?.error, "companion is not running.", "the prompt comes back, and the banner's reason is not said twice");
});

test("cancel ends a streaming turn as cancelled", async (t) => {
  const { editor, controller } = await start(t, [{ chunks: [{ text: "streaming..." }], hang: true }]);
  const turn = controller.handle({ type: "prompt", text: "go", mentions: [] });
  await editor.waitFor("the first chunk", () => editor.agentText().includes("streaming"));
  await controller.handle({ type: "cancel" });
  await turn;
  const end = await turnEnded(editor);
  assert.equal(end.stopReason, "cancelled");
});

test("the approval mode setting applies to new sessions; config options change the mode", async (t) => {
  const { editor, controller } = await start(t, [], { approvalMode: "auto_edit" });
  await controller.handle({ type: "newSession" });
  const s = editor.posted.find((m): m is ToWebview & { type: "session" } => m.type === "session");
  assert.equal(s?.modes?.currentModeId, "auto_edit");
  const mode = s?.configOptions?.find((o) => o.category === "mode");
  assert.ok(mode, "the agent offers a mode config option");
  await controller.handle({ type: "setConfigOption", configId: mode.id, value: "plan" });
  const upd = editor.updates().filter((u) => u.sessionUpdate === "config_option_update").pop();
  assert.ok(upd && upd.sessionUpdate === "config_option_update");
  const now = upd.configOptions.find((o) => o.id === mode.id);
  assert.equal(now && "currentValue" in now ? now.currentValue : undefined, "plan");
  await controller.handle({ type: "setMode", modeId: "default" });
  assert.ok(editor.updates().some((u) => u.sessionUpdate === "current_mode_update" && u.currentModeId === "default"));
  assert.ok(!editor.posted.some((m) => m.type === "error"), JSON.stringify(editor.posted.filter((m) => m.type === "error")));
});

test("an untrusted workspace starts in default whatever the approval mode setting says", async (t) => {
  for (const setting of ["yolo", "auto_edit"]) {
    const { editor, controller } = await start(t, [], { approvalMode: setting, trusted: false });
    await controller.handle({ type: "newSession" });
    const s = editor.posted.find((m): m is ToWebview & { type: "session" } => m.type === "session");
    assert.equal(s?.modes?.currentModeId, "default", setting);
    assert.ok(!editor.updates().some((u) => u.sessionUpdate === "current_mode_update" && u.currentModeId === setting), setting);
  }
});

test("a webview shown again mid-turn gets the running state and the open permission card", async (t) => {
  const { editor, controller } = await start(t, [
    { chunks: [{ functionCall: { name: "run_shell_command", args: { command: "echo later" } } }] },
    { match: '"functionResponse"', chunks: [{ text: "ok" }] },
  ]);
  const turn = controller.handle({ type: "prompt", text: "run", mentions: [] });
  const card = await editor.waitFor("the card", () => editor.posted.find((m): m is ToWebview & { type: "permission" } => m.type === "permission"));
  const from = editor.posted.length;
  await controller.handle({ type: "ready" });
  const again = editor.posted.slice(from);
  assert.ok(again.some((m) => m.type === "turn" && m.state === "running"));
  assert.ok(again.some((m) => m.type === "permission" && m.requestId === card.requestId));
  await controller.handle({ type: "cancel" });
  await turn;
  const end = await turnEnded(editor, from);
  assert.equal(end.stopReason, "cancelled");
  assert.ok(editor.posted.some((m) => m.type === "permissionDone" && m.requestId === card.requestId && m.optionId === null));
});

test("a binary that never answers initialize is an error, not an endless start", async (t) => {
  const { ChatController } = await import("../../src/core/controller");
  const { FakeEditor } = await import("./helpers");
  const editor = new FakeEditor();
  const c = new ChatController(editor, {
    launch: async () => ({ command: "sleep", args: ["30"], env: process.env, cwd: "/" }),
    cwd: () => "/",
    approvalMode: () => "default",
    initializeTimeoutMs: 300,
  });
  t.after(() => c.dispose());
  await c.start();
  const status = editor.posted.find((m) => m.type === "status" && m.state === "error") as { message?: string } | undefined;
  assert.match(status?.message ?? "", /did not answer initialize/);
});

test("other workspace folders are sent as additionalDirectories", async (t) => {
  const { mkdtemp, writeFile, realpath, rm } = await import("node:fs/promises");
  const { tmpdir } = await import("node:os");
  const path = await import("node:path");
  const second = await realpath(await mkdtemp(path.join(tmpdir(), "companion-vsc-root2-")));
  t.after(() => rm(second, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }));
  await writeFile(path.join(second, "other.txt"), "SECOND-ROOT-TEXT\n");
  const { editor, controller } = await start(
    t,
    [
      { chunks: [{ functionCall: { name: "read_file", args: { file_path: path.join(second, "other.txt") } } }] },
      { match: "SECOND-ROOT-TEXT", chunks: [{ text: "Read the second root." }] },
    ],
    { additionalDirectories: [second] },
  );
  await controller.handle({ type: "prompt", text: "read it", mentions: [] });
  await turnEnded(editor);
  assert.equal(editor.agentText(), "Read the second root.");
});

test("a command cancelled while it runs is marked cancelled, not failed", async (t) => {
  const { editor, controller } = await start(t, [
    { chunks: [{ functionCall: { name: "run_shell_command", args: { command: "echo started-now; sleep 30" } } }] },
    { match: '"functionResponse"', chunks: [{ text: "ok" }] },
  ]);
  const turn = controller.handle({ type: "prompt", text: "run", mentions: [] });
  const card = await editor.waitFor("the card", () => editor.posted.find((m): m is ToWebview & { type: "permission" } => m.type === "permission"));
  await controller.handle({ type: "permissionResponse", requestId: card.requestId, optionId: card.options.find((o) => o.kind === "allow_once")!.optionId });
  await editor.waitFor("the command to print", () => editor.terminals[0]?.text.includes("started-now"));
  await controller.handle({ type: "cancel" });
  await turn;
  await turnEnded(editor);
  const ends = editor.updates().filter((u) => u.sessionUpdate === "tool_call_update" && (u.status === "failed" || u.status === "completed"));
  assert.ok(ends.length > 0, "the call ended");
  for (const u of ends) {
    assert.ok(u.sessionUpdate === "tool_call_update" && u.status === "failed", JSON.stringify(u));
    assert.equal((u._meta as { companion?: { outcome?: unknown } } | undefined)?.companion?.outcome, "cancelled", JSON.stringify(u));
  }
});

/** memory is an in-memory workspaceState entry for the last open session. */
function memory() {
  let id: string | undefined;
  return { get: () => id, set: (v: string | undefined) => void (id = v) };
}

test("after a window reload the conversation that was open is loaded back", async (t) => {
  const home = await realpath(await mkdtemp(path.join(tmpdir(), "companion-vsc-home-")));
  const workspace = await realpath(await mkdtemp(path.join(tmpdir(), "companion-vsc-ws-")));
  t.after(() => Promise.all([rm(home, { recursive: true, force: true }), rm(workspace, { recursive: true, force: true })]));
  const last = memory();
  const first = await start(t, [{ match: "keep this", chunks: [{ text: "Kept answer." }] }], { home, workspace, lastSession: last });
  await first.controller.handle({ type: "prompt", text: "keep this conversation", mentions: [] });
  await turnEnded(first.editor);
  const id = first.controller.currentSessionId!;
  assert.equal(last.get(), id, "the open session is remembered");
  await first.controller.dispose();

  // The "reloaded window": a new controller, same workspace state.
  const second = await start(t, [], { home, workspace, lastSession: last });
  await second.editor.waitFor("the restored session", () => second.controller.currentSessionId);
  assert.equal(second.controller.currentSessionId, id);
  const session = second.editor.posted.find((m): m is ToWebview & { type: "session" } => m.type === "session");
  assert.equal(session?.sessionId, id, "the first session the webview sees is the restored one, not a new empty one");
  assert.equal(session?.replaying, true);
  assert.equal(second.editor.agentText(id), "Kept answer.");
  assert.equal(session?.title, "keep this conversation");
  await second.controller.dispose();

  // A prompt typed at once, while the agent starts, goes to the restored conversation.
  const third = await start(t, [{ match: "typed early", chunks: [{ text: "Answered in the restored session." }] }], { home, workspace, lastSession: last, noStart: true });
  const starting = third.controller.start();
  await third.controller.handle({ type: "prompt", text: "typed early", mentions: [] });
  await starting;
  await turnEnded(third.editor);
  assert.equal(third.controller.currentSessionId, id);
  assert.equal(third.editor.agentText(id), "Kept answer.Answered in the restored session.");
  assert.equal(third.editor.posted.filter((m) => m.type === "session").length, 1, "no other session was made");
});

test("a remembered session that cannot be loaded gives a new session and is forgotten", async (t) => {
  const last = memory();
  last.set("sess_00000000000000000000000000000000");
  const { editor, controller } = await start(t, [], { lastSession: last });
  await editor.waitFor("a session", () => controller.currentSessionId);
  assert.notEqual(controller.currentSessionId, "sess_00000000000000000000000000000000");
  assert.equal(last.get(), undefined);
  assert.ok(!editor.posted.some((m) => m.type === "error"), JSON.stringify(editor.posted.filter((m) => m.type === "error")));
});

test("New session on an empty session keeps it; the history lists only sessions with a prompt", async (t) => {
  const last = memory();
  const { editor, controller } = await start(t, [{ chunks: [{ text: "ok" }] }], { lastSession: last });
  await editor.waitFor("a session", () => controller.currentSessionId);
  const empty = controller.currentSessionId;
  await controller.handle({ type: "newSession" });
  await controller.handle({ type: "newSession" });
  assert.equal(controller.currentSessionId, empty, "no second empty session");
  assert.equal(last.get(), undefined, "an empty session is not remembered");
  await controller.handle({ type: "prompt", text: "## **Title** with `code`", mentions: [] });
  await turnEnded(editor);
  assert.equal(last.get(), empty);
  await controller.handle({ type: "newSession" });
  const fresh = controller.currentSessionId;
  assert.notEqual(fresh, empty);
  await controller.handle({ type: "newSession" });
  assert.equal(controller.currentSessionId, fresh);
  await controller.handle({ type: "listSessions" });
  const list = editor.posted.filter((m): m is ToWebview & { type: "sessions" } => m.type === "sessions").at(-1);
  assert.ok(list?.sessions.some((s) => s.sessionId === empty && s.title === "Title with code"), JSON.stringify(list?.sessions));
  assert.ok(list?.sessions.every((s) => s.title || s.sessionId === fresh), "untitled sessions are left out, except the current one");
  const titles = editor.updates(empty).filter((u) => u.sessionUpdate === "session_info_update");
  assert.ok(titles.every((u) => u.sessionUpdate === "session_info_update" && !/[#*`]/.test(u.title ?? "")), JSON.stringify(titles));
});

test("an untrusted window tells the agent before its first session: the notice says not trusted, once, with one period", async (t) => {
  const { editor, controller } = await start(t, [{ chunks: [{ text: "ok" }] }], { noStart: true });
  editor.context = { isTrusted: false };
  await controller.start();
  await controller.handle({ type: "prompt", text: "hello", mentions: [] });
  await turnEnded(editor);
  const text = editor.agentText();
  assert.match(text, /This workspace is not trusted \(the editor says this workspace is not trusted\)/, text);
  assert.doesNotMatch(text, /no longer trusted/, text);
  assert.doesNotMatch(text, /\.\.\)/, text);
  assert.equal(text.split("This workspace is").length - 1, 1, text);
});

test("the status bar's token count is the current session's: a new session does not keep the old one's", async (t) => {
  const { editor, controller } = await start(t, [{ chunks: [{ text: "counted" }] }]);
  await controller.handle({ type: "prompt", text: "count me", mentions: [] });
  await turnEnded(editor);
  await editor.waitFor("a token count", () => editor.statuses.at(-1)?.usage);
  const first = controller.currentSessionId;
  await controller.handle({ type: "newSession" });
  assert.notEqual(controller.currentSessionId, first);
  assert.equal(editor.statuses.at(-1)?.usage, undefined, "the new session shows no count until its own");
  await controller.handle({ type: "loadSession", sessionId: first! });
  assert.equal(controller.currentSessionId, first);
});
