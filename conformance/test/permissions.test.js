// The edit flows Zed's agent panel drives: a permission request carrying a
// diff, the user's answer, and the write that follows through the editor's
// fs/write_text_file (Zed applies it to the buffer it shows).

import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { TEST_TIMEOUT_MS, settle, start, withTimeout } from "../lib/harness.js";

const FS = { fs: { readTextFile: true, writeTextFile: true } };

/** answer builds a permission handler choosing the option with that id, recording each request. */
function answer(asked, optionId, meta) {
  return ({ params }) => {
    asked.push(params);
    const opt = params.options.find((o) => o.optionId === optionId);
    assert.ok(opt, `option ${optionId} offered: ${JSON.stringify(params.options)}`);
    return { outcome: { outcome: "selected", optionId }, ...(meta ? { _meta: meta } : {}) };
  };
}

/** toolUpdates returns the tool_call and tool_call_update payloads for one call. */
function toolUpdates(h, sessionId, toolCallId) {
  return h.updates(sessionId).filter((u) => u.sessionUpdate.startsWith("tool_call") && u.toolCallId === toolCallId);
}

/** indexOf returns the position of the first captured message matching pred. */
function indexOf(h, pred) {
  return h.messages.findIndex((m) => pred(m.msg));
}

test("an edit asks with a diff; allow once writes the proposal through fs/write_text_file", { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const asked = [];
  const writes = [];
  const h = await start(t, {
    files: { "a.txt": "one\ntwo\nthree\n" },
    script: {
      turns: [
        { chunks: [{ functionCall: { name: "replace", args: { file_path: "a.txt", old_string: "two", new_string: "TWO" } } }] },
        // Only a request carrying the tool's success matches; anything else fails the turn.
        { match: "Edited a.txt", chunks: [{ text: "Changed it." }] },
      ],
      fallback: "error",
    },
    requestPermission: answer(asked, "proceed_once"),
    writeTextFile: ({ params }) => {
      writes.push(params);
      return {};
    },
  });
  await h.initialize(FS);
  const { sessionId } = await h.newSession();
  const res = await withTimeout(h.prompt(sessionId, "capitalise two"), "prompt");
  assert.equal(res.stopReason, "end_turn");
  await settle();

  const file = path.join(h.workspace, "a.txt");
  const diff = { type: "diff", path: file, oldText: "one\ntwo\nthree\n", newText: "one\nTWO\nthree\n" };
  assert.equal(asked.length, 1, "one permission request");
  const call = asked[0].toolCall;
  assert.equal(asked[0].sessionId, sessionId);
  assert.equal(call.kind, "edit");
  assert.deepEqual(call.content, [diff], "the request carries the whole-file diff");
  assert.deepEqual(call.locations?.map((l) => l.path), [file]);
  const kinds = asked[0].options.map((o) => o.kind);
  for (const k of ["allow_once", "allow_always", "reject_once"]) assert.ok(kinds.includes(k), `option kind ${k} in ${kinds}`);
  assert.equal(new Set(asked[0].options.map((o) => o.optionId)).size, asked[0].options.length, "option ids are unique");

  // The card went out first with the same diff, as Zed renders the request from it.
  const ups = toolUpdates(h, sessionId, call.toolCallId);
  assert.equal(ups[0].sessionUpdate, "tool_call");
  assert.deepEqual(ups[0].content, [diff]);
  const cardAt = indexOf(h, (m) => m.params?.update?.sessionUpdate === "tool_call" && m.params.update.toolCallId === call.toolCallId);
  const askAt = indexOf(h, (m) => m.method === "session/request_permission");
  const answeredAt = h.messages.findIndex((m) => m.dir === "c2a" && m.msg.result?.outcome);
  const writeAt = indexOf(h, (m) => m.method === "fs/write_text_file");
  assert.ok(cardAt < askAt && askAt < answeredAt && answeredAt < writeAt, `order card ${cardAt} < ask ${askAt} < answer ${answeredAt} < write ${writeAt}`);

  assert.deepEqual(writes, [{ sessionId, path: file, content: "one\nTWO\nthree\n" }]);
  assert.equal(await readFile(file, "utf8"), "one\ntwo\nthree\n", "the agent left the disk to the editor");
  assert.deepEqual(ups.map((u) => u.status), ["pending", "in_progress", "completed"]);
  assert.ok(ups.at(-1).content.some((c) => c.type === "diff" && c.newText === diff.newText), "the finished card keeps the diff");
  await h.close();
});

test("_meta.companion.modifiedContent in the answer: the user's text is written", { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const asked = [];
  const writes = [];
  const userText = "# Notes\n\nwritten by the user\n";
  const h = await start(t, {
    script: {
      turns: [
        { chunks: [{ functionCall: { name: "write_file", args: { file_path: "notes.md", content: "# Notes\n\nproposed\n" } } }] },
        // The model must be told that the user changed its proposal.
        { match: "The user modified your proposed change", chunks: [{ text: "Noted." }] },
      ],
      fallback: "error",
    },
    requestPermission: answer(asked, "proceed_once", { companion: { modifiedContent: userText } }),
    writeTextFile: ({ params }) => {
      writes.push(params);
      return {};
    },
  });
  await h.initialize(FS);
  const { sessionId } = await h.newSession();
  const res = await withTimeout(h.prompt(sessionId, "write notes"), "prompt");
  assert.equal(res.stopReason, "end_turn");
  await settle();

  const file = path.join(h.workspace, "notes.md");
  const proposed = asked[0]?.toolCall.content?.[0];
  assert.equal(proposed?.type, "diff");
  assert.equal(proposed.newText, "# Notes\n\nproposed\n");
  assert.ok(proposed.oldText == null, "a new file has no old text");
  assert.deepEqual(writes.map((w) => [w.path, w.content]), [[file, userText]], "the user's text reached fs/write_text_file");
  const last = toolUpdates(h, sessionId, asked[0].toolCall.toolCallId).at(-1);
  assert.equal(last.status, "completed");
  assert.equal(last.rawOutput?.userModified, true);
  assert.ok(last.content.some((c) => c.type === "diff" && c.newText === userText), "the final diff shows the user's text");
  await h.close();
});

test("reject: nothing is written and the model hears the refusal", { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const asked = [];
  const writes = [];
  const h = await start(t, {
    files: { "a.txt": "keep\n" },
    script: {
      turns: [
        { chunks: [{ functionCall: { name: "write_file", args: { file_path: "a.txt", content: "gone\n" } } }] },
        { match: "The user rejected this call.", chunks: [{ text: "I left it alone." }] },
      ],
      fallback: "error",
    },
    requestPermission: answer(asked, "reject_once"),
    writeTextFile: ({ params }) => {
      writes.push(params);
      return {};
    },
  });
  await h.initialize(FS);
  const { sessionId } = await h.newSession();
  const res = await withTimeout(h.prompt(sessionId, "overwrite a.txt"), "prompt");
  assert.equal(res.stopReason, "end_turn");
  await settle();
  assert.equal(asked.length, 1);
  assert.deepEqual(writes, [], "no fs/write_text_file after a rejection");
  assert.equal(await readFile(path.join(h.workspace, "a.txt"), "utf8"), "keep\n");
  const ups = toolUpdates(h, sessionId, asked[0].toolCall.toolCallId);
  assert.equal(ups.at(-1).status, "failed");
  assert.ok(!ups.some((u) => u.status === "in_progress"), "a rejected call never runs");
  await h.close();
});

test("allow all edits this session switches to auto_edit; the next edit does not ask", { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const asked = [];
  const writes = [];
  const h = await start(t, {
    files: { "a.txt": "a\n", "b.txt": "b\n" },
    script: {
      turns: [
        { chunks: [{ functionCall: { name: "write_file", args: { file_path: "a.txt", content: "A\n" } } }] },
        { chunks: [{ functionCall: { name: "write_file", args: { file_path: "b.txt", content: "B\n" } } }] },
        { chunks: [{ text: "Both done." }] },
      ],
      fallback: "error",
    },
    requestPermission: answer(asked, "proceed_always_tool"),
    writeTextFile: ({ params }) => {
      writes.push(params);
      return {};
    },
  });
  await h.initialize(FS);
  const { sessionId } = await h.newSession();
  const res = await withTimeout(h.prompt(sessionId, "edit both"), "prompt");
  assert.equal(res.stopReason, "end_turn");
  await settle();
  assert.equal(asked.length, 1, "only the first edit asked");
  assert.deepEqual(writes.map((w) => path.basename(w.path) + "=" + w.content), ["a.txt=A\n", "b.txt=B\n"]);
  // Zed's mode picker follows the agent: both the mode and the config option change.
  const mode = await h.waitUpdate(sessionId, "current_mode_update");
  assert.equal(mode.currentModeId, "auto_edit");
  const opt = await h.waitUpdate(sessionId, "config_option_update", (u) =>
    u.configOptions.some((o) => o.id === "mode" && o.currentValue === "auto_edit"),
  );
  assert.ok(opt);
  await h.close();
});
