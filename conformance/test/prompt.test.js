import assert from "node:assert/strict";
import { test } from "node:test";
import { TEST_TIMEOUT_MS, settle, start, textOf, withTimeout } from "../lib/harness.js";

test("prompt streams thought and message chunks to end_turn", { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const h = await start(t, {
    script: {
      turns: [
        {
          chunks: [{ thought: "Thinking it over." }, { text: "Hello, " }, { text: "editor." }],
          usage: { promptTokens: 12, outputTokens: 4 },
        },
      ],
      fallback: "error",
    },
    files: { "main.go": "package main\n" },
  });
  await h.initialize();
  const { sessionId } = await h.newSession();
  assert.match(sessionId, /\S/, "sessionId is a non-empty string");
  const commands = await h.waitUpdate(sessionId, "available_commands_update");
  const names = commands.availableCommands.map((c) => c.name);
  for (const want of ["help", "tools", "clear", "model"]) {
    assert.ok(names.includes(want), `available commands ${names} lack ${want}`);
  }

  const res = await withTimeout(h.prompt(sessionId, "Say hello\nto me"), "prompt");
  assert.equal(res.stopReason, "end_turn");
  await settle();
  const ups = h.updates(sessionId);
  const kinds = ups.map((u) => u.sessionUpdate);
  const streamed = kinds.filter((k) => k === "agent_thought_chunk" || k === "agent_message_chunk");
  assert.deepEqual(streamed, ["agent_thought_chunk", "agent_message_chunk", "agent_message_chunk"], `updates ${kinds}`);
  assert.ok(kinds.indexOf("agent_thought_chunk") < kinds.indexOf("agent_message_chunk"), "thought before message");
  assert.equal(textOf(ups, "agent_thought_chunk"), "Thinking it over.");
  assert.equal(textOf(ups), "Hello, editor.");
  const info = ups.find((u) => u.sessionUpdate === "session_info_update");
  assert.ok(info, `no session_info_update in ${kinds}`);
  assert.equal(info.title, "Say hello");

  // Every update for this prompt arrived before the prompt's response.
  const order = h.messages.map((m) => m.msg);
  const respAt = order.findIndex((m) => m.result?.stopReason === "end_turn");
  const lastChunkAt = order.findLastIndex((m) => m.params?.update?.sessionUpdate === "agent_message_chunk");
  assert.ok(lastChunkAt < respAt, "chunks are sent before the prompt response");
  await h.close();
});

test("slash command /tools lists the read-only tools", { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const h = await start(t, { script: { turns: [], fallback: "error" } });
  await h.initialize();
  const { sessionId } = await h.newSession();
  await h.waitUpdate(sessionId, "available_commands_update");
  const res = await withTimeout(h.prompt(sessionId, "/tools"), "/tools prompt");
  assert.equal(res.stopReason, "end_turn");
  await settle();
  const text = textOf(h.updates(sessionId));
  for (const tool of ["read_file", "list_directory", "glob", "grep"]) {
    assert.ok(text.includes(`\`${tool}\``), `/tools output lacks ${tool}: ${JSON.stringify(text)}`);
  }
  await h.close();
});
