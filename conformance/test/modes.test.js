// What Zed's mode and thinking pickers change: after session/set_config_option
// or session/set_mode the next tool calls follow the new mode, and the thought
// level reaches the model. (The updates that answer a mode change are checked
// in sessions.test.js and permissions.test.js.)

import assert from "node:assert/strict";
import { test } from "node:test";
import * as acp from "@agentclientprotocol/sdk";
import { TEST_TIMEOUT_MS, settle, start, withTimeout } from "../lib/harness.js";

const FS = { fs: { readTextFile: true, writeTextFile: true } };

/** recorder returns handlers that record permission requests and writes. */
function recorder() {
  const rec = { asked: [], writes: [] };
  rec.requestPermission = ({ params }) => {
    rec.asked.push(params);
    return { outcome: { outcome: "cancelled" } };
  };
  rec.writeTextFile = ({ params }) => {
    rec.writes.push(params);
    return {};
  };
  return rec;
}

test("plan mode (set_config_option): an edit is refused without asking", { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const rec = recorder();
  const h = await start(t, {
    files: { "a.txt": "a\n" },
    script: {
      turns: [
        { chunks: [{ functionCall: { name: "write_file", args: { file_path: "a.txt", content: "changed\n" } } }] },
        { match: "Plan mode is read-only", chunks: [{ text: "I will describe it instead." }] },
      ],
      fallback: "error",
    },
    requestPermission: rec.requestPermission,
    writeTextFile: rec.writeTextFile,
  });
  await h.initialize(FS);
  const { sessionId } = await h.newSession();
  const set = await h.request(acp.methods.agent.session.setConfigOption, { sessionId, configId: "mode", value: "plan" });
  assert.equal(set.configOptions.find((o) => o.id === "mode").currentValue, "plan");
  const res = await withTimeout(h.prompt(sessionId, "change a.txt"), "prompt");
  assert.equal(res.stopReason, "end_turn");
  await settle();
  assert.deepEqual(rec.asked, [], "plan mode does not ask");
  assert.deepEqual(rec.writes, [], "plan mode does not write");
  const last = h.updates(sessionId).filter((u) => u.sessionUpdate === "tool_call_update").at(-1);
  assert.equal(last.status, "failed");
  await h.close();
});

test("yolo mode (set_mode): edits and commands run without asking", { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const rec = recorder();
  const h = await start(t, {
    files: { "a.txt": "a\n" },
    script: {
      turns: [
        { chunks: [{ functionCall: { name: "write_file", args: { file_path: "a.txt", content: "changed\n" } } }] },
        { chunks: [{ functionCall: { name: "run_shell_command", args: { command: "echo yolo ran" } } }] },
        { match: "yolo ran", chunks: [{ text: "Both ran." }] },
      ],
      fallback: "error",
    },
    requestPermission: rec.requestPermission,
    writeTextFile: rec.writeTextFile,
  });
  await h.initialize(FS);
  const { sessionId } = await h.newSession();
  await h.request(acp.methods.agent.session.setMode, { sessionId, modeId: "yolo" });
  const res = await withTimeout(h.prompt(sessionId, "change a.txt and run echo"), "prompt");
  assert.equal(res.stopReason, "end_turn");
  await settle();
  assert.deepEqual(rec.asked, [], "yolo does not ask");
  assert.deepEqual(rec.writes.map((w) => w.content), ["changed\n"]);
  const done = h.updates(sessionId).filter((u) => u.sessionUpdate === "tool_call_update" && u.status === "completed");
  assert.equal(done.length, 2, "both calls completed");
  await h.close();
});

test("thought_level (set_config_option) reaches the model as a thinking budget", { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const h = await start(t, {
    script: {
      // Only a request carrying the "high" budget matches; anything else fails the turn.
      turns: [{ match: '"thinkingBudget":24576', chunks: [{ text: "Thinking hard." }] }],
      fallback: "error",
    },
  });
  await h.initialize();
  const { sessionId, configOptions } = await h.newSession();
  const levels = configOptions.find((o) => o.id === "thought_level").options.map((o) => o.value);
  assert.deepEqual(levels, ["auto", "low", "medium", "high"]);
  const set = await h.request(acp.methods.agent.session.setConfigOption, { sessionId, configId: "thought_level", value: "high" });
  assert.equal(set.configOptions.find((o) => o.id === "thought_level").currentValue, "high");
  const res = await withTimeout(h.prompt(sessionId, "think"), "prompt");
  assert.equal(res.stopReason, "end_turn");
  await h.close();
});
