// Rewind ("Rewind to here" on a user message) against the real agent:
// `_companion/session/rewind` restores the files, the fork is loaded and the
// prompt goes back to the box. The journey needs an agent that advertises
// `agentCapabilities._meta.companion.rewind`; with one that does not, the
// webview is told it cannot rewind and a rewind request is refused.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { ToWebview } from "../../src/webviewProtocol";
import { promptParts } from "../../src/core/controller";
import { start, turnEnded, type Harness } from "./helpers";

const TURNS = [
  { match: "rw-one", chunks: [{ text: "Writing one." }, { functionCall: { name: "write_file", args: { file_path: "rw.txt", content: "one\n" } } }] },
  { match: "rw-two", chunks: [{ text: "Writing two." }, { functionCall: { name: "write_file", args: { file_path: "rw.txt", content: "two\n" } } }] },
];

/** advertised tells whether the running agent offers rewind (what the webview was told). */
function advertised(h: Harness): boolean {
  const st = h.editor.posted.filter((m): m is ToWebview & { type: "status" } => m.type === "status" && m.state === "ready").at(-1);
  return st?.canRewind === true;
}

async function send(h: Harness, text: string): Promise<void> {
  const from = h.editor.posted.length;
  await h.controller.handle({ type: "prompt", text, mentions: [] });
  const end = await turnEnded(h.editor, from);
  assert.equal(end.error, undefined, end.error);
}

test("rewind to the second prompt restores the file, loads the fork and gives the prompt back", async (t) => {
  const h = await start(t, TURNS, { files: { "rw.txt": "zero\n" } });
  await h.editor.waitFor("the agent ready", () => h.editor.posted.some((m) => m.type === "status" && m.state === "ready"));
  if (!advertised(h)) {
    t.skip("this companion binary does not advertise _meta.companion.rewind");
    return;
  }
  const file = path.join(h.workspace, "rw.txt");
  await send(h, "rw-one: write one");
  assert.equal(await readFile(file, "utf8"), "one\n");
  await send(h, "rw-two: write two");
  assert.equal(await readFile(file, "utf8"), "two\n");
  const original = h.controller.currentSessionId!;

  const from = h.editor.posted.length;
  await h.controller.handle({ type: "rewind", prompt: 1 });
  const after = h.editor.posted.slice(from);
  const err = after.find((m) => m.type === "error");
  assert.equal(err, undefined, JSON.stringify(err));
  assert.equal(await readFile(file, "utf8"), "one\n", "the file is as prompt 1 left it");
  const fork = h.controller.currentSessionId!;
  assert.notEqual(fork, original, "the chat shows the fork");
  const done = after.findIndex((m) => m.type === "replayDone");
  assert.ok(done > 0, "the fork is replayed");
  const users = after.slice(0, done).filter((m) => m.type === "update" && m.update.sessionUpdate === "user_message_chunk" && m.update.content.type === "text");
  assert.equal(users.length, 1, "one user message is left");
  const rewound = after.find((m): m is ToWebview & { type: "rewound" } => m.type === "rewound");
  assert.ok(rewound, "the webview is told the rewind finished");
  assert.equal(rewound.sessionId, fork);
  assert.equal(rewound.text, "rw-two: write two");
  assert.deepEqual(rewound.restored, [file]);
  assert.ok(after.indexOf(rewound) > done, "the notice comes after the replay (which clears the chat)");

  // The original stays in the history as the fork's parent.
  await h.controller.handle({ type: "listSessions" });
  const list = h.editor.posted.filter((m): m is ToWebview & { type: "sessions" } => m.type === "sessions").at(-1);
  assert.ok(list?.sessions.some((s) => s.sessionId === original), "the original session is still listed");
});

test("a rewind the agent refuses leaves the chat as it was", async (t) => {
  const h = await start(t, TURNS, { files: { "rw.txt": "zero\n" } });
  await send(h, "rw-one: write one");
  const sid = h.controller.currentSessionId;
  const from = h.editor.posted.length;
  await h.controller.handle({ type: "rewind", prompt: advertised(h) ? 7 : 0 });
  const after = h.editor.posted.slice(from);
  assert.equal(after.length, 1, JSON.stringify(after));
  assert.equal(after[0].type, "error");
  assert.ok((after[0] as { message: string }).message.length > 0);
  assert.equal(h.controller.currentSessionId, sid);
  assert.equal(await readFile(path.join(h.workspace, "rw.txt"), "utf8"), "one\n");
});

test("promptParts gives the text and the files of a rewound prompt", () => {
  assert.deepEqual(
    promptParts([
      { type: "text", text: "fix " },
      { type: "resource", resource: { uri: "file:///w/a.go", text: "package a" } },
      { type: "text", text: "please" },
      { type: "resource_link", uri: "file:///w/b.png", name: "b.png" },
      { type: "image", mimeType: "image/png", data: "AA==" },
    ]),
    { text: "fix please", mentions: [{ uri: "file:///w/a.go", label: "a.go" }, { uri: "file:///w/b.png", label: "b.png" }] },
  );
});
