import assert from "node:assert/strict";
import { mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import * as acp from "@agentclientprotocol/sdk";
import { TEST_TIMEOUT_MS, rpcError, settle, start, textOf, withTimeout } from "../lib/harness.js";

test("two sessions prompting at once each get only their own chunks", { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const h = await start(t, {
    script: {
      turns: [
        { match: "alpha", delayMs: 20, chunks: [{ text: "A1 " }, { text: "A2 " }, { text: "A3" }] },
        { match: "beta", delayMs: 20, chunks: [{ text: "B1 " }, { text: "B2 " }, { text: "B3" }] },
      ],
      fallback: "error",
    },
  });
  await h.initialize();
  const a = (await h.newSession()).sessionId;
  const b = (await h.newSession()).sessionId;
  assert.notEqual(a, b);
  const [ra, rb] = await withTimeout(Promise.all([h.prompt(a, "alpha"), h.prompt(b, "beta")]), "both prompts");
  assert.equal(ra.stopReason, "end_turn");
  assert.equal(rb.stopReason, "end_turn");
  await settle();
  assert.equal(textOf(h.updates(a)), "A1 A2 A3");
  assert.equal(textOf(h.updates(b)), "B1 B2 B3");
  // Both turns were in flight together: the second prompt went out before the first answer came back.
  const seq = h.messages.map((m) => m.msg);
  const prompts = seq.flatMap((m, i) => (m.method === "session/prompt" ? [i] : []));
  const firstStop = seq.findIndex((m) => m.result?.stopReason);
  assert.ok(prompts.length === 2 && prompts[1] < firstStop, "prompts overlapped");
  await h.close();
});

test("set_mode and set_config_option report current_mode_update and config_option_update", { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const h = await start(t, { script: { turns: [], fallback: "error" } });
  await h.initialize();
  const s = await h.newSession();
  const sessionId = s.sessionId;
  assert.equal(s.modes?.currentModeId, "default");
  assert.deepEqual(
    s.modes.availableModes.map((m) => m.id).sort(),
    ["auto_edit", "default", "plan", "yolo"],
  );
  const ids = (s.configOptions ?? []).map((o) => o.id);
  assert.deepEqual(ids, ["mode", "model", "thought_level"]);
  const thought = s.configOptions.find((o) => o.id === "thought_level");
  assert.equal(thought.category, "thought_level");
  assert.equal(thought.currentValue, "auto");
  const modelOpt = s.configOptions.find((o) => o.id === "model");
  const otherModel = modelOpt.options.map((o) => o.value).find((v) => v !== modelOpt.currentValue);
  assert.ok(otherModel, "more than one model offered");

  // Config option "mode" -> current_mode_update, and the answer carries the whole list.
  const set = await h.request(acp.methods.agent.session.setConfigOption, { sessionId, configId: "mode", value: "plan" });
  assert.equal(set.configOptions.find((o) => o.id === "mode")?.currentValue, "plan");
  const cm = await h.waitUpdate(sessionId, "current_mode_update");
  assert.equal(cm.currentModeId, "plan");

  // session/set_mode -> config_option_update with the new mode.
  await h.request(acp.methods.agent.session.setMode, { sessionId, modeId: "yolo" });
  const co = await h.waitUpdate(sessionId, "config_option_update", (u) =>
    u.configOptions.some((o) => o.id === "mode" && o.currentValue === "yolo"),
  );
  assert.ok(co);

  const bad = await rpcError(
    h.agent.request(acp.methods.agent.session.setMode, { sessionId, modeId: "nope" }),
    "set_mode nope",
  );
  assert.equal(bad.code, -32602, bad.message);

  // Config option "model".
  const model = await h.request(acp.methods.agent.session.setConfigOption, { sessionId, configId: "model", value: otherModel });
  assert.equal(model.configOptions.find((o) => o.id === "model")?.currentValue, otherModel);
  assert.equal(model.configOptions.find((o) => o.id === "mode")?.currentValue, "yolo");
  await h.close();
});

test("session/close, then a prompt to it fails with -32002", { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const h = await start(t, { script: { turns: [], fallback: "error" } });
  await h.initialize();
  const { sessionId } = await h.newSession();
  const closed = await h.request(acp.methods.agent.session.close, { sessionId });
  assert.equal(typeof closed, "object");
  const err = await rpcError(h.prompt(sessionId, "hi"), "prompt after close");
  assert.equal(err.code, -32002, err.message);
  // The agent answered session/close itself with a result, not an error the SDK papered over.
  const closeAnswer = h.answerTo("session/close");
  assert.ok(closeAnswer && "result" in closeAnswer, `session/close answer: ${JSON.stringify(closeAnswer)}`);
  await h.close();
});

test("additionalDirectories widen the session's roots", { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const extra = await realpath(await mkdtemp(path.join(tmpdir(), "companion-extra-")));
  t.after(() => rm(extra, { recursive: true, force: true }));
  const file = path.join(extra, "lib.txt");
  await writeFile(file, "contents of the extra root\n");
  const h = await start(t, {
    script: {
      turns: [
        { chunks: [{ functionCall: { name: "read_file", args: { file_path: file } } }] },
        { match: "contents of the extra root", chunks: [{ text: "Read it." }] },
      ],
      fallback: "error",
    },
  });
  await h.initialize();
  const { sessionId } = await h.newSession({ additionalDirectories: [extra] });
  const res = await withTimeout(h.prompt(sessionId, "read the extra file"), "prompt");
  assert.equal(res.stopReason, "end_turn");
  await settle();
  const tool = h.updates(sessionId).filter((u) => u.sessionUpdate.startsWith("tool_call"));
  assert.equal(tool.at(-1)?.status, "completed", JSON.stringify(tool));
  assert.equal(textOf(h.updates(sessionId)), "Read it.");
  await h.close();
});
