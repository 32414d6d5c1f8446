import assert from "node:assert/strict";
import path from "node:path";
import { test } from "node:test";
import { TEST_TIMEOUT_MS, settle, start, textOf, withTimeout } from "../lib/harness.js";

test("read_file reads the client's buffer through fs/read_text_file", { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const reads = [];
  const h = await start(t, {
    files: { "notes.txt": "text on disk\n" },
    script: {
      turns: [
        { chunks: [{ functionCall: { name: "read_file", args: { file_path: "notes.txt" } } }] },
        // Only a model request carrying the buffer's text matches this turn;
        // with fallback "error" anything else fails the prompt.
        { match: "unsaved buffer text", chunks: [{ text: "The note says hi." }] },
      ],
      fallback: "error",
    },
    readTextFile: ({ params }) => {
      reads.push(params);
      return { content: "unsaved buffer text\n" };
    },
  });
  await h.initialize({ fs: { readTextFile: true, writeTextFile: true } });
  const { sessionId } = await h.newSession();
  const res = await withTimeout(h.prompt(sessionId, "What does notes.txt say?"), "prompt");
  assert.equal(res.stopReason, "end_turn");
  await settle();

  assert.equal(reads.length, 1, `client reads: ${JSON.stringify(reads)}`);
  assert.equal(reads[0].path, path.join(h.workspace, "notes.txt"));
  assert.equal(reads[0].sessionId, sessionId);

  const ups = h.updates(sessionId);
  const tool = ups.filter((u) => u.sessionUpdate === "tool_call" || u.sessionUpdate === "tool_call_update");
  assert.deepEqual(
    tool.map((u) => `${u.sessionUpdate}:${u.status}`),
    ["tool_call:pending", "tool_call_update:in_progress", "tool_call_update:completed"],
  );
  assert.ok(tool.every((u) => u.toolCallId === tool[0].toolCallId), "one toolCallId throughout");
  assert.equal(tool[0].kind, "read");
  const content = tool.flatMap((u) => u.content ?? []).map((c) => c.content?.text ?? "").join("");
  assert.ok(content.includes("unsaved buffer text"), `tool content ${JSON.stringify(content)}`);
  assert.equal(textOf(ups), "The note says hi.");
  await h.close();
});
