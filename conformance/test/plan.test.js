// write_todos becomes the ACP plan Zed shows above the thread: each call
// sends the whole list as a `plan` update, and a reloaded session shows the
// latest plan again.

import assert from "node:assert/strict";
import { test } from "node:test";
import * as acp from "@agentclientprotocol/sdk";
import { TEST_TIMEOUT_MS, settle, start, withTimeout } from "../lib/harness.js";

const todos = (...items) => ({ name: "write_todos", args: { todos: items.map(([description, status, priority]) => ({ description, status, priority })) } });

test("write_todos sends the whole plan each time; cancelled items are left out; load shows the latest", { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const h = await start(t, {
    script: {
      turns: [
        { chunks: [{ functionCall: todos(["Read the code", "in_progress", "high"], ["Fix the bug", "pending"], ["Write a test", "pending", "low"]) }] },
        { chunks: [{ functionCall: todos(["Read the code", "completed", "high"], ["Fix the bug", "in_progress"], ["Write a test", "cancelled", "low"]) }] },
        { chunks: [{ text: "Working on it." }] },
      ],
      fallback: "error",
    },
  });
  await h.initialize();
  const { sessionId } = await h.newSession();
  const res = await withTimeout(h.prompt(sessionId, "fix the bug"), "prompt");
  assert.equal(res.stopReason, "end_turn");
  await settle();

  const plans = h.updates(sessionId).filter((u) => u.sessionUpdate === "plan");
  assert.equal(plans.length, 2, "one plan update per write_todos call");
  assert.deepEqual(plans[0].entries, [
    { content: "Read the code", status: "in_progress", priority: "high" },
    { content: "Fix the bug", status: "pending", priority: "medium" },
    { content: "Write a test", status: "pending", priority: "low" },
  ]);
  assert.deepEqual(plans[1].entries, [
    { content: "Read the code", status: "completed", priority: "high" },
    { content: "Fix the bug", status: "in_progress", priority: "medium" },
  ]);
  const cards = h.updates(sessionId).filter((u) => u.sessionUpdate === "tool_call");
  assert.ok(cards.every((c) => c.kind === "think"), `write_todos cards are kind think: ${cards.map((c) => c.kind)}`);

  await h.request(acp.methods.agent.session.close, { sessionId });
  const before = h.updates(sessionId).length;
  await h.request(acp.methods.agent.session.load, { sessionId, cwd: h.workspace, mcpServers: [] });
  await settle();
  const replayed = h.updates(sessionId).slice(before).filter((u) => u.sessionUpdate === "plan");
  assert.ok(replayed.length >= 1, "the plan is replayed on load");
  assert.deepEqual(replayed.at(-1).entries, plans[1].entries, "the last replayed plan is the latest one");
  await h.close();
});
