import assert from "node:assert/strict";
import { test } from "node:test";
import * as acp from "@agentclientprotocol/sdk";
import { TEST_TIMEOUT_MS, settle, start, withTimeout } from "../lib/harness.js";

test("session/cancel during streaming ends the turn cancelled", { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const h = await start(t, {
    script: {
      turns: [
        { chunks: [{ text: "Starting a long answer" }], hang: true },
        { match: "again", chunks: [{ text: "Short answer." }] },
      ],
      fallback: "error",
    },
  });
  await h.initialize();
  const { sessionId } = await h.newSession();
  const turn = h.prompt(sessionId, "Write a novel");
  await h.waitUpdate(sessionId, "agent_message_chunk");
  await h.cancel(sessionId);
  const res = await withTimeout(turn, "cancelled prompt");
  assert.equal(res.stopReason, "cancelled");

  // The session takes prompts again after a cancel.
  const again = await withTimeout(h.prompt(sessionId, "again"), "prompt after cancel");
  assert.equal(again.stopReason, "end_turn");
  await h.close();
});

test("session/cancel during a client fs read withdraws the request", { timeout: TEST_TIMEOUT_MS }, async (t) => {
  let aborted;
  const h = await start(t, {
    files: { "big.txt": "x\n" },
    script: {
      turns: [{ chunks: [{ functionCall: { name: "read_file", args: { file_path: "big.txt" } } }] }],
      fallback: "error",
    },
    // Never answers until the agent withdraws the request with $/cancel_request,
    // which the SDK turns into an aborted signal.
    readTextFile: ({ signal }) =>
      new Promise((_, reject) => {
        signal.addEventListener("abort", () => {
          aborted = signal.reason;
          reject(signal.reason);
        });
      }),
  });
  await h.initialize({ fs: { readTextFile: true } });
  const { sessionId } = await h.newSession();
  const turn = h.prompt(sessionId, "read it");
  const read = await h.waitMessage("a2c", (m) => m.method === "fs/read_text_file", "fs/read_text_file request");
  await h.cancel(sessionId);
  const cancelReq = await h.waitMessage(
    "a2c",
    (m) => m.method === "$/cancel_request" && m.params?.requestId === read.id,
    "$/cancel_request for the fs read",
  );
  assert.ok(cancelReq);
  const res = await withTimeout(turn, "cancelled prompt");
  assert.equal(res.stopReason, "cancelled");
  await settle();
  assert.ok(aborted instanceof acp.RequestError, "the SDK aborted the handler's signal");
  assert.equal(aborted.code, -32800);
  // The client answered the withdrawn request with -32800.
  const answer = await h.waitMessage("c2a", (m) => m.id === read.id && !m.method, "answer to the fs read");
  assert.equal(answer.error?.code, -32800);

  const tool = h.updates(sessionId).filter((u) => u.sessionUpdate.startsWith("tool_call"));
  assert.ok(tool.length > 0, "tool call reported");
  assert.equal(tool.at(-1).status, "failed", `tool statuses ${tool.map((u) => u.status)}`);
  await h.close();
});

test("a busy session refuses a second prompt with -32600", { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const h = await start(t, {
    script: { turns: [{ chunks: [{ text: "working" }], hang: true }], fallback: "error" },
  });
  await h.initialize();
  const { sessionId } = await h.newSession();
  const first = h.prompt(sessionId, "one");
  await h.waitUpdate(sessionId, "agent_message_chunk");
  await assert.rejects(withTimeout(h.prompt(sessionId, "two"), "second prompt"), (err) => {
    assert.ok(err instanceof acp.RequestError, String(err));
    assert.equal(err.code, -32600, err.message);
    return true;
  });
  await h.cancel(sessionId);
  assert.equal((await withTimeout(first, "first prompt")).stopReason, "cancelled");
  await h.close();
});
