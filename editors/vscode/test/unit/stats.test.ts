// Session figures: formatStats's text, and after a scripted turn with a tool
// call against the real agent, `_companion/session/stats` reaches the status
// bar (StatusInfo.stats) and the "Show Session Stats" command's source.

import { test } from "node:test";
import assert from "node:assert/strict";
import { advertisesStats, formatStats, isStats, seconds, type SessionStats } from "../../src/core/stats";
import { start, turnEnded } from "./helpers";

const SAMPLE: SessionStats = {
  sessionId: "sess_1",
  requests: 3,
  errors: 1,
  tokens: { prompt: 1200, output: 80, cached: 300, thoughts: 20, total: 1300 },
  cacheHitRatio: 0.25,
  modelTimeMs: 1500,
  toolTimeMs: 40,
  toolCalls: 2,
  toolSuccess: 1,
  toolFailed: 1,
  successRate: 0.5,
  decisions: { policy: 1, mode: 0, hook: 0, user: 0, rejected: 1, denied: 0, blocked: 0 },
  models: [{ name: "gemini-2.5-flash", requests: 3, errors: 1, tokens: { prompt: 1200, output: 80, cached: 300, thoughts: 20, total: 1300 }, cacheHitRatio: 0.25, timeMs: 1500 }],
  tools: [{ name: "read_file", calls: 2, success: 1, failed: 1, successRate: 0.5, timeMs: 40 }],
};

test("stats: formatStats writes every figure, one line each", () => {
  assert.equal(
    formatStats(SAMPLE),
    [
      "Model requests: 3 (1 error)",
      "Tokens: 1200 prompt, 80 output, 300 cached (25.0% cache hits), 20 thoughts, 1300 total",
      "Time: 1.5s in the model, 40ms in tools",
      "Tool calls: 2 (1 succeeded, 1 failed; 50.0% success)",
      "Decisions: allowed 1 by policy or rule, 0 by mode, 0 by you, 0 by a hook; 1 rejected, 0 denied by policy, 0 blocked by a hook",
      "Model gemini-2.5-flash: 3 requests, 1 error; 1200 prompt, 80 output, 300 cached (25.0% cache hits), 20 thoughts, 1300 total; 1.5s",
      "Tool read_file: 2 calls, 1 succeeded, 1 failed; 40ms",
    ].join("\n"),
  );
  const empty = { ...SAMPLE, requests: 0, errors: 0, toolCalls: 0, tokens: { ...SAMPLE.tokens, prompt: 0 }, models: [], tools: [] };
  assert.match(formatStats(empty), /cached \(n\/a cache hits\)/);
  assert.match(formatStats(empty), /Tool calls: 0 \(1 succeeded, 1 failed; n\/a success\)/);
  assert.equal(seconds(999), "999ms");
  assert.equal(seconds(61_000), "61.0s");
});

test("stats: the capability and the answer's shape are checked", () => {
  assert.equal(advertisesStats({ companion: { stats: true } }), true);
  assert.equal(advertisesStats({ companion: { rewind: true } }), false);
  assert.equal(advertisesStats(null), false);
  assert.equal(isStats(SAMPLE), true);
  assert.equal(isStats({ requests: 1 }), false);
});

test("stats: after a turn with a tool call the status bar gets the session's figures", async (t) => {
  const h = await start(t, [
    { match: "st-read", chunks: [{ text: "Reading." }, { functionCall: { name: "read_file", args: { file_path: "a.txt" } } }], usage: { promptTokens: 40, outputTokens: 4 } },
    { chunks: [{ text: "It says hi." }], usage: { promptTokens: 60, outputTokens: 5 } },
  ], { files: { "a.txt": "hi\n" } });
  await h.editor.waitFor("the agent ready", () => h.editor.posted.some((m) => m.type === "status" && m.state === "ready"));
  const from = h.editor.posted.length;
  await h.controller.handle({ type: "prompt", text: "st-read: read a.txt", mentions: [] });
  const end = await turnEnded(h.editor, from);
  assert.equal(end.error, undefined, end.error);
  const shown = await h.editor.waitFor("figures in the status bar", () => h.editor.statuses.find((s) => s.stats)?.stats);
  assert.equal(shown.sessionId, h.controller.currentSessionId);
  assert.equal(shown.requests, 2);
  assert.equal(shown.tokens.prompt, 100);
  assert.equal(shown.tokens.output, 9);
  assert.equal(shown.toolCalls, 1);
  assert.deepEqual(shown.tools.map((x) => [x.name, x.calls, x.success]), [["read_file", 1, 1]]);
  const text = formatStats(shown);
  assert.match(text, /Model requests: 2 \(0 errors\)/);
  assert.match(text, /Tool read_file: 1 call, 1 succeeded/);
  const again = await h.controller.sessionStats();
  assert.equal(again?.requests, 2, "the command fetches the same figures");
});
