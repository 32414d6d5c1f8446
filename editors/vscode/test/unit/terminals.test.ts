// terminal/* handling on real processes: live output to the view, the byte
// limit, wait_for_exit, kill (whole process group), release, and the user
// closing the terminal.

import { test } from "node:test";
import assert from "node:assert/strict";
import { Terminals } from "../../src/core/terminals";
import { FakeEditor } from "./helpers";

function setup(t: { after: (f: () => void) => void }) {
  const editor = new FakeEditor();
  const terms = new Terminals(editor);
  t.after(() => terms.disposeAll());
  return { editor, terms };
}

test("output streams to the view and is capped for the agent", async (t) => {
  const { editor, terms } = setup(t);
  const { terminalId } = terms.create({ sessionId: "s", command: "bash", args: ["-c", "printf 'line1\\nline2\\nend'; exit 3"], env: [{ name: "X", value: "1" }], outputByteLimit: 5 });
  const exit = await terms.waitForExit({ sessionId: "s", terminalId });
  assert.deepEqual(exit, { exitCode: 3, signal: null });
  const out = terms.output({ sessionId: "s", terminalId });
  assert.equal(out.output, "2\nend");
  assert.equal(out.truncated, true);
  assert.deepEqual(out.exitStatus, { exitCode: 3, signal: null });
  const view = editor.terminals[0];
  assert.match(view.text, /^\$ bash -c/);
  assert.match(view.text, /line1\nline2\nend/, "the view shows everything");
  assert.equal(view.exitSummary, "exit code 3");
});

test("env and cwd reach the command", async (t) => {
  const { terms } = setup(t);
  const { terminalId } = terms.create({ sessionId: "s", command: "bash", args: ["-c", "echo $COMPANION_T:$(pwd)"], env: [{ name: "COMPANION_T", value: "yes" }], cwd: "/tmp" });
  await terms.waitForExit({ sessionId: "s", terminalId });
  assert.equal(terms.output({ sessionId: "s", terminalId }).output, "yes:/tmp\n");
});

test("kill ends the command and its children; the output stays readable until release", async (t) => {
  const { terms } = setup(t);
  const { terminalId } = terms.create({ sessionId: "s", command: "bash", args: ["-c", "echo started; sleep 30 & wait"] });
  const req = { sessionId: "s", terminalId };
  const waiting = terms.waitForExit(req);
  for (let i = 0; i < 100 && !terms.output(req).output.includes("started"); i++) await new Promise((r) => setTimeout(r, 20));
  terms.kill(req);
  assert.deepEqual(await waiting, { exitCode: null, signal: "SIGKILL" });
  assert.equal(terms.output(req).output, "started\n");
  terms.release(req);
  assert.throws(() => terms.output(req), /not found/i);
});

test("closing the terminal view kills the command", async (t) => {
  const { editor, terms } = setup(t);
  const { terminalId } = terms.create({ sessionId: "s", command: "sleep", args: ["30"] });
  editor.terminals[0].close();
  const exit = await terms.waitForExit({ sessionId: "s", terminalId });
  assert.equal(exit.signal, "SIGKILL");
});

test("a command that cannot start reports exit 127", async (t) => {
  const { terms } = setup(t);
  const { terminalId } = terms.create({ sessionId: "s", command: "/nonexistent/tool" });
  const exit = await terms.waitForExit({ sessionId: "s", terminalId });
  assert.equal(exit.exitCode, 127);
  assert.match(terms.output({ sessionId: "s", terminalId }).output, /ENOENT/);
});

test("the view's header quotes arguments the way a shell would need them", async (t) => {
  const { editor, terms } = setup(t);
  const { terminalId } = terms.create({ sessionId: "s", command: "bash", args: ["-c", "echo qa-shell-$((6*7))", "it's", "", "plain"] });
  await terms.waitForExit({ sessionId: "s", terminalId });
  assert.equal(editor.terminals[0].text.split("\n")[0], `$ bash -c 'echo qa-shell-$((6*7))' 'it'\\''s' '' plain`);
});

test("the chat card's tail is the last lines as the terminal shows them", async () => {
  const { lastLines } = await import("../../src/core/terminals");
  assert.equal(lastLines("a\nb\nc\n", 2), "b\nc");
  assert.equal(lastLines("\x1b[31mred\x1b[0m\r\nprogress 10%\rprogress 100%\n", 8), "red\nprogress 100%");
});
