// Permission requests against the real agent: edits reviewed in the (fake)
// diff editor, commands as chat cards running in (fake) terminals, and fs
// reads that see unsaved buffers.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { ToWebview } from "../../src/webviewProtocol";
import { start, turnEnded } from "./helpers";

const writeTurns = (file: string, content: string) => [
  { chunks: [{ functionCall: { name: "write_file", args: { file_path: file, content } } }] },
  { match: '"functionResponse"', chunks: [{ text: "Done." }] },
];

test("an accepted edit with the user's change writes the user's text through the editor", async (t) => {
  const { editor, controller, workspace } = await start(t, writeTurns("a.txt", "agent proposal\n"), { files: { "a.txt": "old text\n" } });
  editor.onDiff = () => ({ decision: "accept", finalText: "user changed this\n" });
  await controller.handle({ type: "prompt", text: "edit a.txt", mentions: [] });
  await turnEnded(editor);
  const file = path.join(workspace, "a.txt");
  assert.deepEqual(editor.diffs.map((d) => [d.path, d.oldText, d.newText]), [[file, "old text\n", "agent proposal\n"]]);
  assert.deepEqual(editor.written, [{ path: file, content: "user changed this\n" }]);
  assert.equal(await readFile(file, "utf8"), "user changed this\n");
  const card = editor.posted.find((m): m is ToWebview & { type: "permission" } => m.type === "permission");
  assert.ok(card?.inDiffEditor, "the chat card says the edit is in the diff editor");
  assert.ok(editor.posted.some((m) => m.type === "permissionDone" && m.requestId === card.requestId && m.optionId));
});

test("a rejected edit leaves the file alone", async (t) => {
  const { editor, controller, workspace } = await start(t, writeTurns("b.txt", "nope\n"), { files: { "b.txt": "keep me\n" } });
  editor.onDiff = () => ({ decision: "reject" });
  await controller.handle({ type: "prompt", text: "edit b.txt", mentions: [] });
  await turnEnded(editor);
  assert.equal(editor.diffs.length, 1);
  assert.deepEqual(editor.written, []);
  assert.equal(await readFile(path.join(workspace, "b.txt"), "utf8"), "keep me\n");
  assert.equal(finalOutcome(editor), "rejected", "the failed update says the user rejected it");
});

test("the chat card can accept an edit too, with the diff's current text", async (t) => {
  const { editor, controller, workspace } = await start(t, writeTurns("new/c.txt", "created\n"));
  editor.onDiff = () => new Promise(() => {}); // the user never clicks in the diff editor
  const turn = controller.handle({ type: "prompt", text: "create c.txt", mentions: [] });
  const card = await editor.waitFor("the permission card", () => editor.posted.find((m): m is ToWebview & { type: "permission" } => m.type === "permission"));
  await controller.handle({ type: "prompt", text: "x", mentions: [] }); // refused: a turn runs
  assert.ok(editor.posted.some((m) => m.type === "promptFailed" && m.text === "x" && /already running/.test(m.error)), "the refused prompt goes back to the box");
  assert.equal(editor.diffs[0].oldText, null, "a new file has no current text");
  const allow = card.options.find((o) => o.kind === "allow_once")!;
  await controller.handle({ type: "permissionResponse", requestId: card.requestId, optionId: allow.optionId });
  await turn;
  await turnEnded(editor);
  assert.equal(await readFile(path.join(workspace, "new/c.txt"), "utf8"), "created\n");
});

test("a shell command is a chat card, then runs in a terminal with live output", async (t) => {
  const { editor, controller } = await start(t, [
    { chunks: [{ functionCall: { name: "run_shell_command", args: { command: "echo terminal-says-hi && echo err-line 1>&2" } } }] },
    { match: "terminal-says-hi", chunks: [{ text: "The command printed its greeting." }] },
  ]);
  const turn = controller.handle({ type: "prompt", text: "run it", mentions: [] });
  const card = await editor.waitFor("the permission card", () => editor.posted.find((m): m is ToWebview & { type: "permission" } => m.type === "permission"));
  assert.equal(card.inDiffEditor, false);
  assert.equal(card.toolCall.kind, "execute");
  assert.equal(editor.diffs.length, 0);
  await controller.handle({ type: "permissionResponse", requestId: card.requestId, optionId: card.options.find((o) => o.kind === "allow_once")!.optionId });
  await turn;
  await turnEnded(editor);
  assert.equal(editor.agentText(), "The command printed its greeting.");
  assert.equal(editor.terminals.length, 1);
  const view = editor.terminals[0];
  assert.match(view.text, /terminal-says-hi/);
  assert.match(view.text, /err-line/);
  assert.equal(view.exitSummary, "exit code 0");
  const embedded = editor.updates().find((u) => u.sessionUpdate === "tool_call_update" && u.content?.some((c) => c.type === "terminal"));
  assert.ok(embedded && embedded.sessionUpdate === "tool_call_update", "the tool call embeds the terminal");
  const terminalId = embedded.content!.flatMap((c) => (c.type === "terminal" ? [c.terminalId] : []))[0];
  // The card gets the command's last lines, as a tool_call_update of the same call.
  const outputs = editor.updates().flatMap((u) => {
    const out = u.sessionUpdate === "tool_call_update" ? (u._meta as { companion?: { terminalOutput?: { terminalId: string; tail: string; exit?: string | null } } } | undefined)?.companion?.terminalOutput : undefined;
    return out && u.sessionUpdate === "tool_call_update" ? [{ toolCallId: u.toolCallId, ...out }] : [];
  });
  const last = outputs.at(-1);
  assert.ok(last, "a terminalOutput update");
  assert.equal(last.toolCallId, embedded.toolCallId);
  assert.equal(last.terminalId, terminalId);
  assert.match(last.tail, /terminal-says-hi\n(.|\n)*err-line/);
  assert.equal(last.exit, "exit code 0");
  // The card's link focuses that terminal.
  await controller.handle({ type: "focusTerminal", terminalId });
  assert.equal(view.shown, 1);
});

test("dismissing a command card cancels the tool call", async (t) => {
  const { editor, controller } = await start(t, [
    { chunks: [{ functionCall: { name: "run_shell_command", args: { command: "echo should-not-run" } } }] },
    { match: '"functionResponse"', chunks: [{ text: "ok" }] },
  ]);
  void controller.handle({ type: "prompt", text: "run it", mentions: [] });
  const card = await editor.waitFor("the permission card", () => editor.posted.find((m): m is ToWebview & { type: "permission" } => m.type === "permission"));
  await controller.handle({ type: "permissionResponse", requestId: card.requestId, optionId: null });
  await turnEnded(editor);
  assert.equal(editor.terminals.length, 0);
  assert.equal(finalOutcome(editor), "cancelled", "the failed update says the user cancelled it");
});

/** finalOutcome is the `_meta.companion.outcome` of the last failed tool_call_update posted to the webview. */
function finalOutcome(editor: { updates(): import("@agentclientprotocol/sdk").SessionUpdate[] }): unknown {
  const failed = editor.updates().filter((u) => u.sessionUpdate === "tool_call_update" && u.status === "failed");
  assert.ok(failed.length > 0, "a failed tool_call_update");
  return (failed.at(-1)!._meta as { companion?: { outcome?: unknown } } | undefined)?.companion?.outcome;
}

test("read_file sees the unsaved buffer through fs/read_text_file", async (t) => {
  const { editor, controller, workspace } = await start(
    t,
    [
      { chunks: [{ functionCall: { name: "read_file", args: { file_path: "r.txt" } } }] },
      { match: "BUFFER-ONLY-TEXT", chunks: [{ text: "Read the buffer." }] },
    ],
    { files: { "r.txt": "disk only\n" } },
  );
  editor.buffers.set(path.join(workspace, "r.txt"), "BUFFER-ONLY-TEXT\n");
  await controller.handle({ type: "prompt", text: "read r.txt", mentions: [] });
  await turnEnded(editor);
  assert.equal(editor.agentText(), "Read the buffer.");
});

test("a command's terminal is forgotten once it ended and was released", async (t) => {
  const { editor, controller } = await start(t, [
    { chunks: [{ functionCall: { name: "run_shell_command", args: { command: "echo pruned-1" } } }] },
    { match: "pruned-1", chunks: [{ functionCall: { name: "run_shell_command", args: { command: "echo pruned-2" } } }] },
    { match: "pruned-2", chunks: [{ text: "Both ran." }] },
  ]);
  const turn = controller.handle({ type: "prompt", text: "run two", mentions: [] });
  for (let n = 1; n <= 2; n++) {
    const card = await editor.waitFor(`card ${n}`, () => editor.posted.filter((m): m is ToWebview & { type: "permission" } => m.type === "permission")[n - 1]);
    await controller.handle({ type: "permissionResponse", requestId: card.requestId, optionId: card.options.find((o) => o.kind === "allow_once")!.optionId });
  }
  await turn;
  await turnEnded(editor);
  assert.equal(editor.agentText(), "Both ran.");
  assert.equal(editor.terminals.length, 2);
  // Both cards got their final lines before the calls were dropped.
  const finals = editor.updates().filter((u) => u.sessionUpdate === "tool_call_update" && (u._meta as { companion?: { terminalOutput?: { exit?: string } } } | undefined)?.companion?.terminalOutput?.exit);
  assert.equal(finals.length, 2, JSON.stringify(finals));
  await editor.waitFor("the calls pruned", () => controller.trackedTerminals === 0);
});

test("the card's Review brings the open edit's diff to the front; once answered it says so", async (t) => {
  const { editor, controller } = await start(t, writeTurns("r.txt", "proposal\n"), { files: { "r.txt": "old\n" } });
  let decide!: (a: { decision: "accept" | "reject" }) => void;
  editor.onDiff = () => new Promise((resolve) => (decide = resolve));
  const turn = controller.handle({ type: "prompt", text: "edit r.txt", mentions: [] });
  const card = await editor.waitFor("the card", () => editor.posted.find((m): m is ToWebview & { type: "permission" } => m.type === "permission"));
  assert.equal(editor.shownDiffs.length, 0, "opening the review does not bring it to the front");
  await controller.handle({ type: "reviewDiff", requestId: card.requestId });
  assert.deepEqual(editor.shownDiffs.map((d) => d.newText), ["proposal\n"]);
  decide({ decision: "reject" });
  await turn;
  await controller.handle({ type: "reviewDiff", requestId: card.requestId });
  assert.ok(editor.posted.some((m) => m.type === "error" && /no longer being reviewed/.test(m.message)));
});
