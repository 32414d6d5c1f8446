// Shell commands in the editor's terminals (terminal/*), as Zed shows them:
// a terminal embedded in the tool call card with live output.

import assert from "node:assert/strict";
import { test } from "node:test";
import { TEST_TIMEOUT_MS, settle, start, withTimeout } from "../lib/harness.js";
import { Terminals } from "../lib/terminals.js";

/** allowOnce answers every permission request with its allow_once option. */
function allowOnce(asked) {
  return ({ params }) => {
    asked.push(params);
    return { outcome: { outcome: "selected", optionId: params.options.find((o) => o.kind === "allow_once").optionId } };
  };
}

test("run_shell_command runs in the client's terminal: create, embed, wait, output, release", { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const asked = [];
  const terms = new Terminals();
  const command = "echo hello from the terminal; echo oops >&2; exit 3";
  const h = await start(t, {
    script: {
      turns: [
        { chunks: [{ functionCall: { name: "run_shell_command", args: { command, description: "say hello" } } }] },
        // The model sees the terminal's output and exit code.
        { match: "hello from the terminal", chunks: [{ text: "It said hello and failed." }] },
      ],
      fallback: "error",
    },
    requestPermission: allowOnce(asked),
    terminals: terms,
  });
  await h.initialize({ fs: { readTextFile: true, writeTextFile: true }, terminal: true });
  const { sessionId } = await h.newSession();
  const res = await withTimeout(h.prompt(sessionId, "run it"), "prompt");
  assert.equal(res.stopReason, "end_turn");
  await settle();

  assert.equal(asked.length, 1, "the command asked first");
  const call = asked[0].toolCall;
  assert.equal(call.kind, "execute");

  const create = terms.calls[0];
  assert.equal(create.method, "terminal/create");
  assert.equal(create.params.sessionId, sessionId);
  assert.equal(create.params.command, "bash");
  assert.deepEqual(create.params.args, ["-c", command]);
  assert.equal(create.params.cwd, h.workspace);
  assert.equal(create.params.outputByteLimit, 1 << 20, "the client keeps at most 1 MiB");
  assert.ok(create.params.env?.some((v) => v.name === "COMPANION" && v.value === "1"), "COMPANION=1 marks the agent's commands");
  const terminalId = terms.byId.keys().next().value;
  assert.ok(terms.calls.every((c) => c.method === "terminal/create" || c.params.terminalId === terminalId), "one terminal throughout");
  // wait_for_exit (maybe with output polls), then the final output, then release, once.
  const methods = terms.methods();
  assert.ok(methods.includes("terminal/wait_for_exit"), `methods ${methods}`);
  assert.equal(methods.at(-1), "terminal/release", `released last: ${methods}`);
  assert.equal(methods.filter((m) => m === "terminal/release").length, 1);
  assert.ok(methods.lastIndexOf("terminal/output") > methods.indexOf("terminal/wait_for_exit"), "output read after the exit");

  // The card embeds the terminal before it is released, so Zed shows it live.
  const ups = h.updates(sessionId).filter((u) => u.sessionUpdate.startsWith("tool_call") && u.toolCallId === call.toolCallId);
  const embedAt = h.messages.findIndex((m) =>
    m.msg.params?.update?.content?.some?.((c) => c.type === "terminal" && c.terminalId === terminalId),
  );
  const releaseAt = h.messages.findIndex((m) => m.msg.method === "terminal/release");
  assert.ok(embedAt >= 0 && embedAt < releaseAt, `terminal content (${embedAt}) before release (${releaseAt})`);
  const last = ups.at(-1);
  // The command ran, so the call completed; its exit code is part of the result.
  assert.equal(last.status, "completed");
  assert.equal(last.rawOutput?.exitCode, 3, JSON.stringify(last.rawOutput));
  await h.close();
});

test("output beyond the client's byte limit: the model is told the editor kept only the tail", { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const terms = new Terminals();
  // 1.5 MiB of output, then a marker the truncated tail still holds.
  const command = "head -c 1572864 /dev/zero | tr '\\0' x; echo; echo END-OF-OUTPUT";
  const h = await start(t, {
    script: {
      turns: [
        { chunks: [{ functionCall: { name: "run_shell_command", args: { command } } }] },
        { match: "The editor kept only the last", chunks: [{ text: "Long output." }] },
      ],
      fallback: "error",
    },
    requestPermission: allowOnce([]),
    terminals: terms,
  });
  await h.initialize({ terminal: true });
  const { sessionId } = await h.newSession();
  const res = await withTimeout(h.prompt(sessionId, "make noise"), "prompt");
  assert.equal(res.stopReason, "end_turn");
  const term = [...terms.byId.values()][0];
  assert.equal(term.truncated, true, "the client truncated");
  assert.ok(term.output.endsWith("END-OF-OUTPUT\n"));
  await h.close();
});

test("without the terminal capability the command runs locally and no terminal/* is sent", { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const asked = [];
  const terms = new Terminals();
  const h = await start(t, {
    script: {
      turns: [
        { chunks: [{ functionCall: { name: "run_shell_command", args: { command: "echo ran locally" } } }] },
        { match: "ran locally", chunks: [{ text: "Done." }] },
      ],
      fallback: "error",
    },
    requestPermission: allowOnce(asked),
    terminals: terms,
  });
  await h.initialize({ fs: { readTextFile: true, writeTextFile: true } });
  const { sessionId } = await h.newSession();
  const res = await withTimeout(h.prompt(sessionId, "run it"), "prompt");
  assert.equal(res.stopReason, "end_turn");
  await settle();
  assert.deepEqual(terms.calls, [], "terminal/* is never called without the capability");
  const last = h.updates(sessionId).filter((u) => u.sessionUpdate === "tool_call_update").at(-1);
  assert.equal(last.status, "completed");
  assert.ok(!last.content?.some((c) => c.type === "terminal"), "no terminal content");
  await h.close();
});

test("cancel while the terminal runs: the agent kills and releases it", { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const terms = new Terminals();
  const h = await start(t, {
    script: {
      turns: [{ chunks: [{ functionCall: { name: "run_shell_command", args: { command: "sleep 30" } } }] }],
      fallback: "error",
    },
    requestPermission: allowOnce([]),
    terminals: terms,
  });
  await h.initialize({ terminal: true });
  const { sessionId } = await h.newSession();
  const turn = h.prompt(sessionId, "wait a while");
  await h.waitMessage("a2c", (m) => m.method === "terminal/wait_for_exit", "terminal/wait_for_exit");
  await h.cancel(sessionId);
  const res = await withTimeout(turn, "cancelled prompt");
  assert.equal(res.stopReason, "cancelled");
  await h.waitMessage("a2c", (m) => m.method === "terminal/release", "terminal/release");
  const methods = terms.methods();
  assert.ok(methods.includes("terminal/kill"), `the command was killed: ${methods}`);
  assert.ok(methods.indexOf("terminal/kill") < methods.indexOf("terminal/release"), `kill before release: ${methods}`);
  const term = [...terms.byId.values()][0];
  const exit = await withTimeout(term.exited, "the killed command to exit");
  assert.equal(exit.signal, "SIGKILL", "the sleep really stopped");
  const last = h.updates(sessionId).filter((u) => u.sessionUpdate === "tool_call_update").at(-1);
  assert.ok(["failed", "completed"].includes(last?.status), `the card is closed: ${JSON.stringify(last)}`);
  await h.close();
});
