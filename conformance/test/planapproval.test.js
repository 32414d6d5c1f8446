// Plans the user approves (exit_plan_mode), answered as any ACP client
// answers a permission request: each choice leads to its mode
// (current_mode_update) and, when the work starts, to the plan's steps as
// the session's plan.

import assert from "node:assert/strict";
import { test } from "node:test";
import * as acp from "@agentclientprotocol/sdk";
import { TEST_TIMEOUT_MS, settle, start, withTimeout } from "../lib/harness.js";

const FS = { fs: { readTextFile: true, writeTextFile: true } };
const PLAN = "# Bump the version\n1. Write v1 to f.txt\n2. Check it";

for (const [choice, mode, read] of [
  ["plan_accept_edits", "auto_edit", "now in auto_edit mode"],
  ["plan_ask_edits", "default", "now in default mode"],
  ["plan_keep", null, "keep planning"],
]) {
  test(`exit_plan_mode answered ${choice}`, { timeout: TEST_TIMEOUT_MS }, async (t) => {
    const asked = [];
    const h = await start(t, {
      files: { "f.txt": "v0\n" },
      script: {
        turns: [
          { chunks: [{ functionCall: { name: "exit_plan_mode", args: { plan: PLAN } } }] },
          // Only a request carrying what the choice tells the model matches.
          { match: read, chunks: [{ text: "Understood." }] },
        ],
        fallback: "error",
      },
      requestPermission: ({ params }) => {
        asked.push(params);
        const opt = params.options.find((o) => o.optionId === choice);
        assert.ok(opt, `option ${choice} offered: ${JSON.stringify(params.options)}`);
        return { outcome: { outcome: "selected", optionId: choice } };
      },
    });
    await h.initialize(FS);
    const { sessionId } = await h.newSession();
    await h.request(acp.methods.agent.session.setMode, { sessionId, modeId: "plan" });
    const res = await withTimeout(h.prompt(sessionId, "bump the version"), "prompt");
    assert.equal(res.stopReason, "end_turn");
    await settle();

    assert.equal(asked.length, 1, "one question");
    assert.equal(asked[0].toolCall.kind, "switch_mode", "the card is a mode switch");
    const ids = asked[0].options.map((o) => o.optionId);
    for (const id of ["plan_accept_edits", "plan_ask_edits", "plan_keep"]) assert.ok(ids.includes(id), `${id} in ${ids}`);
    assert.ok(JSON.stringify(asked[0].toolCall.content).includes("Write v1 to f.txt"), "the card shows the plan");

    const ups = h.updates(sessionId);
    const modes = ups.filter((u) => u.sessionUpdate === "current_mode_update").map((u) => u.currentModeId);
    const plans = ups.filter((u) => u.sessionUpdate === "plan").map((u) => u.entries.map((e) => e.content));
    if (mode) {
      assert.deepEqual(modes, [mode], "the mode follows the choice");
      assert.deepEqual(plans.at(-1), ["Write v1 to f.txt", "Check it"], "the plan's steps become the plan");
    } else {
      assert.deepEqual(modes, [], "keeping planning changes no mode");
      assert.deepEqual(plans, [], "and sets no plan");
    }
    await h.close();
  });
}
