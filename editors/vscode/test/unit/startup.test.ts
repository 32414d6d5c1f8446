// An agent that cannot start (a wrong companion.path): a prompt is not lost,
// the error stays with a way out, and New session / Restart keep working once
// the path is fixed.

import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { ChatController } from "../../src/core/controller";
import type { ToWebview } from "../../src/webviewProtocol";
import { FakeEditor, companionBin, turnEnded } from "./helpers";

test("a prompt the agent cannot take comes back to the box with the error; restart with a good path works", async (t) => {
  const home = await realpath(await mkdtemp(path.join(tmpdir(), "companion-vsc-start-")));
  const script = path.join(home, "script.json");
  await writeFile(script, JSON.stringify({ turns: [{ chunks: [{ text: "Now I answer." }] }], fallback: "echo" }));
  let bin = path.join(home, "no-such-companion");
  const editor = new FakeEditor();
  const controller = new ChatController(editor, {
    launch: async () => ({ command: bin, args: ["acp", "--script", script], cwd: home, env: { HOME: home, XDG_CONFIG_HOME: path.join(home, ".config"), XDG_STATE_HOME: path.join(home, ".state"), PATH: process.env.PATH ?? "/usr/bin:/bin" } }),
    cwd: () => home,
    approvalMode: () => "default",
    restartDelaysMs: [50],
  });
  t.after(async () => {
    await controller.dispose();
    await rm(home, { recursive: true, force: true });
  });
  await controller.start();
  const status = () => editor.posted.filter((m): m is ToWebview & { type: "status" } => m.type === "status").at(-1);
  assert.equal(status()?.state, "error");
  assert.match(status()?.message ?? "", /no-such-companion does not exist\. Set companion\.path/);
  assert.doesNotMatch(status()?.message ?? "", /ENOENT|spawn/);

  // The prompt is handed back, with why; nothing of it is recorded as sent.
  const mentions = [{ uri: "file:///x/a.txt", label: "a.txt" }];
  await controller.handle({ type: "prompt", text: "please answer", mentions });
  const failed = editor.posted.find((m) => m.type === "promptFailed");
  assert.deepEqual(failed && { ...failed, error: undefined }, { type: "promptFailed", text: "please answer", mentions, error: undefined });
  assert.equal((failed as { error: string }).error, "companion is not running.", "the banner says why, once");
  assert.ok(!editor.posted.some((m) => m.type === "turn"), "no turn started");
  assert.equal(controller.currentSessionId, undefined);

  // New session says why it cannot start one (instead of doing nothing).
  const before = editor.posted.length;
  await controller.handle({ type: "newSession" });
  const err = editor.posted.slice(before).find((m): m is ToWebview & { type: "error" } => m.type === "error");
  assert.match(err?.message ?? "", /new session.*no-such-companion does not exist/i);

  // Fix the path, restart: a session, and the prompt (sent again from the box) is answered.
  bin = companionBin();
  await controller.handle({ type: "restartAgent" });
  await editor.waitFor("a session", () => controller.currentSessionId);
  assert.equal(status()?.state, "ready");
  const from = editor.posted.length;
  await controller.handle({ type: "prompt", text: "please answer", mentions: [] });
  await turnEnded(editor, from);
  assert.match(editor.agentText(), /Now I answer\./);
});
