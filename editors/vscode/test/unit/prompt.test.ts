// Prompts against the real agent: streaming, `@` mentions, IDE context.

import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { start, turnEnded } from "./helpers";
import { checkImages, MAX_IMAGE_BYTES } from "../../src/core/prompt";

test("a prompt streams the answer to the webview and records the user message", async (t) => {
  const { editor, controller } = await start(t, [
    { chunks: [{ thought: "Thinking it over." }, { text: "Hello " }, { text: "from the script." }] },
  ]);
  await controller.handle({ type: "ready" });
  await controller.handle({ type: "prompt", text: "Say hello", mentions: [] });
  const end = await turnEnded(editor);
  assert.equal(end.stopReason, "end_turn");
  assert.equal(editor.agentText(), "Hello from the script.");
  assert.ok(editor.updates().some((u) => u.sessionUpdate === "agent_thought_chunk"));
  const user = editor.updates().find((u) => u.sessionUpdate === "user_message_chunk");
  assert.deepEqual(user && "content" in user ? user.content : undefined, { type: "text", text: "Say hello" });
  const session = editor.posted.find((m) => m.type === "session");
  assert.ok(session && session.type === "session" && session.sessionId === controller.currentSessionId);
  const running = editor.posted.findIndex((m) => m.type === "turn" && m.state === "running");
  const firstChunk = editor.posted.findIndex((m) => m.type === "update" && m.update.sessionUpdate === "agent_message_chunk");
  assert.ok(running >= 0 && running < firstChunk, "turn running is posted before the answer streams");
  assert.ok(editor.statuses.some((s) => s.state === "ready"));
  const usage = editor.statuses.filter((s) => s.usage).pop();
  assert.ok(usage?.usage && usage.usage.used > 0 && usage.usage.size > 0, "the status bar gets the usage");
});

test("an @ mention is embedded with the open buffer's unsaved text", async (t) => {
  const { editor, controller, workspace } = await start(
    t,
    [{ match: "UNSAVED-MARKER-42", chunks: [{ text: "I saw the unsaved buffer." }] }],
    { files: { "notes.txt": "disk text\n" } },
  );
  const file = path.join(workspace, "notes.txt");
  editor.buffers.set(file, "UNSAVED-MARKER-42\n");
  await controller.handle({ type: "prompt", text: "What is in the file?", mentions: [{ uri: pathToFileURL(file).href, label: "notes.txt" }] });
  await turnEnded(editor);
  assert.equal(editor.agentText(), "I saw the unsaved buffer.");
  const link = editor.updates().find((u) => u.sessionUpdate === "user_message_chunk" && u.content.type === "resource_link");
  assert.ok(link, "the mention is shown in the user's message as a link");
});

test("the IDE context reaches the agent before the next prompt", async (t) => {
  const { editor, controller, workspace } = await start(t, [
    { match: "context-marker-file.ts", chunks: [{ text: "I can see your editor." }] },
  ]);
  const uri = pathToFileURL(path.join(workspace, "context-marker-file.ts")).href;
  editor.context = {
    workspaceFolders: [{ uri: pathToFileURL(workspace).href, name: "ws" }],
    openFiles: [{ uri, isActive: true, timestamp: Date.now(), cursor: { line: 3, character: 1 }, selection: { start: { line: 3, character: 0 }, end: { line: 3, character: 5 } }, selectedText: "hello" }],
    diagnostics: [{ uri, diagnostics: [{ range: { start: { line: 3, character: 0 }, end: { line: 3, character: 5 } }, severity: 1, message: "bad thing" }] }],
    isTrusted: true,
  };
  await controller.newSession();
  controller.contextChanged();
  await controller.handle({ type: "prompt", text: "What am I looking at?", mentions: [] });
  await turnEnded(editor);
  assert.equal(editor.agentText(), "I can see your editor.");
});

test("searchFiles and openLocation go to the editor", async (t) => {
  const { editor, controller } = await start(t, []);
  editor.files = [{ uri: "file:///ws/a.ts", label: "a.ts" }];
  await controller.handle({ type: "searchFiles", requestId: "q1", query: "a" });
  assert.deepEqual(editor.posted.find((m) => m.type === "files"), { type: "files", requestId: "q1", items: editor.files });
  await controller.handle({ type: "openLocation", path: "/ws/a.ts", line: 7 });
  assert.deepEqual(editor.opened, [{ path: "/ws/a.ts", line: 7 }]);
});

// A 1×1 PNG.
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

test("a pasted image is sent as an ACP image block and reaches the model as inline data", async (t) => {
  const { editor, controller } = await start(t, [
    // The script answers this only when the model request carries the image bytes.
    { match: PNG.slice(0, 40), chunks: [{ text: "I see a tiny image." }] },
  ]);
  await controller.handle({ type: "prompt", text: "what is in this picture?", mentions: [], images: [{ mimeType: "image/png", data: PNG, name: "dot.png" }] });
  await turnEnded(editor);
  assert.equal(editor.agentText(), "I see a tiny image.");
  const echoed = editor.updates().find((u) => u.sessionUpdate === "user_message_chunk" && u.content.type === "image");
  assert.ok(echoed && echoed.sessionUpdate === "user_message_chunk" && echoed.content.type === "image" && echoed.content.data === PNG, "the transcript keeps the image for replays");
  const status = editor.posted.filter((m) => m.type === "status").at(-1);
  assert.equal(status && status.type === "status" && status.acceptsImages, true, "the webview is told the agent takes images");
});

test("checkImages refuses images the agent cannot take, with why", () => {
  const img = { mimeType: "image/png", data: PNG };
  assert.equal(checkImages([], false), undefined);
  assert.equal(checkImages([img], true), undefined);
  assert.match(checkImages([img], false) ?? "", /does not accept images/);
  assert.match(checkImages([{ ...img, mimeType: "image/tiff", name: "a.tif" }], true) ?? "", /a\.tif: image\/tiff/);
  assert.match(checkImages([{ ...img, data: "not base64!" }], true) ?? "", /not base64/);
  assert.match(checkImages([{ ...img, data: "A".repeat((MAX_IMAGE_BYTES / 3) * 4 + 8) }], true) ?? "", /larger than/);
});
