// Self-test of the validator the harness runs on every captured message: it
// must reject what the pinned schema rejects, or the suite proves nothing.
import assert from "node:assert/strict";
import { test } from "node:test";
import { MessageChecker } from "../lib/schema.js";

const chunk = (text) => ({
  jsonrpc: "2.0",
  method: "session/update",
  params: { sessionId: "s", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text } } },
});

test("schema checker accepts valid traffic and rejects invalid messages", () => {
  const tests = [
    { name: "valid initialize", dir: "c2a", msg: { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: 1 } }, ok: true },
    { name: "valid initialize answer", dir: "a2c", msg: { jsonrpc: "2.0", id: 0, result: { protocolVersion: 1 } }, ok: true },
    { name: "valid update", dir: "a2c", msg: chunk("hi"), ok: true },
    { name: "answer to nothing", dir: "a2c", msg: { jsonrpc: "2.0", id: 0, result: { protocolVersion: 1 } }, ok: false },
    { name: "wrong jsonrpc", dir: "a2c", msg: { ...chunk("x"), jsonrpc: "1.0" }, ok: false },
    { name: "text not a string", dir: "a2c", msg: chunk(5), ok: false },
    { name: "unknown update kind", dir: "a2c", msg: { jsonrpc: "2.0", method: "session/update", params: { sessionId: "s", update: { sessionUpdate: "nope" } } }, ok: false },
    { name: "update sent to the agent", dir: "c2a", msg: chunk("x"), ok: false },
    { name: "unknown method", dir: "a2c", msg: { jsonrpc: "2.0", id: 9, method: "fs/delete_everything", params: {} }, ok: false },
    { name: "extension method", dir: "a2c", msg: { jsonrpc: "2.0", method: "_companion/hint", params: {} }, ok: true },
    { name: "prompt", dir: "c2a", msg: { jsonrpc: "2.0", id: 1, method: "session/prompt", params: { sessionId: "s", prompt: [{ type: "text", text: "hi" }] } }, ok: true },
    { name: "bad stopReason", dir: "a2c", msg: { jsonrpc: "2.0", id: 1, result: { stopReason: "finished" } }, ok: false },
    { name: "prompt 2", dir: "c2a", msg: { jsonrpc: "2.0", id: 2, method: "session/prompt", params: { sessionId: "s", prompt: [] } }, ok: true },
    { name: "error without message", dir: "a2c", msg: { jsonrpc: "2.0", id: 2, error: { code: -32002 } }, ok: false },
    { name: "fs read from agent", dir: "a2c", msg: { jsonrpc: "2.0", id: 3, method: "fs/read_text_file", params: { sessionId: "s", path: "/a" } }, ok: true },
    { name: "fs read answer lacks content", dir: "c2a", msg: { jsonrpc: "2.0", id: 3, result: {} }, ok: false },
    { name: "cancel_request", dir: "a2c", msg: { jsonrpc: "2.0", method: "$/cancel_request", params: { requestId: 3 } }, ok: true },
    { name: "result and error", dir: "a2c", msg: { jsonrpc: "2.0", id: 4, result: {}, error: { code: 1, message: "x" } }, ok: false },
  ];
  const c = new MessageChecker();
  for (const tt of tests) {
    const problems = c.check(tt.dir, tt.msg);
    assert.equal(problems.length === 0, tt.ok, `${tt.name}: problems ${JSON.stringify(problems)}`);
  }
});
