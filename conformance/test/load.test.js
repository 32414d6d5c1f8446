// session/load as Zed uses it when reopening a thread after a restart: a new
// agent process replays the stored conversation as session/update
// notifications, all of them before the load response, and the conversation
// then continues with the model seeing the old turns.

import assert from "node:assert/strict";
import { test } from "node:test";
import * as acp from "@agentclientprotocol/sdk";
import { TEST_TIMEOUT_MS, settle, start, textOf, withTimeout } from "../lib/harness.js";

const KINDS = ["user_message_chunk", "agent_thought_chunk", "agent_message_chunk", "tool_call", "tool_call_update"];

/** replay reduces updates to the conversation's shape: kind, text or tool status. */
function replay(updates) {
  return updates
    .filter((u) => KINDS.includes(u.sessionUpdate))
    .map((u) => (u.content?.type === "text" ? `${u.sessionUpdate}:${u.content.text}` : `${u.sessionUpdate}:${u.toolCallId}:${u.status}`));
}

test("session/load in a new process replays the history before answering, then the session continues", { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const first = await start(t, {
    files: { "a.txt": "alpha\n" },
    script: {
      turns: [
        { chunks: [{ thought: "Look first." }, { text: "Reading. " }, { functionCall: { name: "read_file", args: { file_path: "a.txt" } } }] },
        { chunks: [{ text: "It says alpha." }] },
      ],
      fallback: "error",
    },
  });
  await first.initialize({ fs: { readTextFile: true, writeTextFile: true } });
  const created = await first.newSession();
  const sessionId = created.sessionId;
  const modelOpt = created.configOptions.find((o) => o.id === "model");
  const otherModel = modelOpt.options.map((o) => o.value).find((v) => v !== modelOpt.currentValue);
  await first.request(acp.methods.agent.session.setConfigOption, { sessionId, configId: "mode", value: "auto_edit" });
  await first.request(acp.methods.agent.session.setConfigOption, { sessionId, configId: "model", value: otherModel });
  const res = await withTimeout(first.prompt(sessionId, "what is in a.txt?"), "first prompt");
  assert.equal(res.stopReason, "end_turn");
  await settle();
  const live = replay(first.updates(sessionId));
  await first.close();

  const second = await start(t, {
    reuse: first,
    script: {
      // Matches only when the model request carries the first turn.
      turns: [{ match: "It says alpha.", chunks: [{ text: "Still alpha." }] }],
      fallback: "error",
    },
  });
  await second.initialize({ fs: { readTextFile: true, writeTextFile: true } });
  const listed = await second.request(acp.methods.agent.session.list, { cwd: second.workspace });
  const entry = listed.sessions.find((s) => s.sessionId === sessionId);
  assert.ok(entry, `session/list shows the stored session: ${JSON.stringify(listed)}`);
  assert.equal(entry.title, "what is in a.txt?");

  const loaded = await second.request(acp.methods.agent.session.load, { sessionId, cwd: second.workspace, mcpServers: [] });
  const answerAt = second.messages.findIndex((m) => m.dir === "a2c" && m.msg.result?.modes);
  const replayed = second.messages
    .map((m, i) => [m.msg, i])
    .filter(([m]) => m.method === "session/update" && KINDS.includes(m.params.update.sessionUpdate));
  assert.ok(replayed.length > 0, "history was replayed");
  assert.ok(replayed.every(([, i]) => i < answerAt), "every replayed update precedes the load response");

  // The replay is the conversation as it was shown live, user text included.
  const again = replay(second.updates(sessionId));
  assert.equal(again[0], "user_message_chunk:what is in a.txt?");
  assert.deepEqual(again.slice(1), live, "the replay matches what the first process streamed");
  const read = second.updates(sessionId).find((u) => u.sessionUpdate === "tool_call");
  assert.equal(read.kind, "read");
  assert.equal(read.title, "Read a.txt");
  // The session's settings come back with it.
  assert.equal(loaded.modes.currentModeId, "auto_edit");
  assert.equal(loaded.configOptions?.find((o) => o.id === "mode")?.currentValue, "auto_edit");
  assert.equal(loaded.configOptions.find((o) => o.id === "model")?.currentValue, otherModel);

  const before = second.updates(sessionId).length;
  const next = await withTimeout(second.prompt(sessionId, "and now?"), "prompt after load");
  assert.equal(next.stopReason, "end_turn");
  await settle();
  assert.equal(textOf(second.updates(sessionId).slice(before)), "Still alpha.");
  await second.close();
});
