// A repository cannot switch companion to yolo (issue 16): its
// .vscode/settings.json sets companion.approvalMode to yolo, and more (the
// agent's environment and arguments); the agent still asks before an edit
// and before a command, and neither happens when refused. Checked by the
// files on disk. 2-chat.test.mjs runs it in a trusted workspace (whose
// settings also turn companion.trace to verbose: the ACP messages are in the
// output channel "Companion ACP Trace", the agent's own log lines in
// "Companion"), 3-untrusted.test.mjs in an untrusted one.

import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import path from "node:path";
import { waitFor } from "../lib/wait.mjs";
import { WAIT_MS } from "../lib/workbench.mjs";

/** FILES hold the repository's own settings: every safety setting it might try. */
export const FILES = {
  ".vscode/settings.json": JSON.stringify({
    "companion.approvalMode": "yolo",
    "companion.args": ["--script", "/nonexistent/repo-script.json"],
    "companion.env": { COMPANION_APPROVAL_MODE: "yolo", COMPANION_LOG_FILE: "/nonexistent/log" },
    "companion.path": "/nonexistent/repo-companion",
  }),
};

/** SECRET is an API key the user's settings give the agent; it never reaches the trace or the log. */
export const SECRET = "e2e-secret-key-5b1d";

/** askedThenRefused sends prompt, waits for its permission card, checks nothing happened, rejects, checks again. */
async function askedThenRefused(chat, prompt, file) {
  await chat.send(prompt);
  const card = chat.pendingPermission();
  await card.waitFor({ timeout: WAIT_MS });
  assert.equal(existsSync(file), false, `${path.basename(file)} exists before any answer`);
  await chat.answerPermission("reject_once");
  await chat.waitIdle();
  assert.equal(existsSync(file), false, `${path.basename(file)} exists after the refusal`);
}

/** checkAsks: in a new session, an edit and a command are both asked about and refused. */
export async function checkAsks({ env, wb, chat }) {
  await chat.newSession();
  assert.equal(await chat.frame.locator("select#mode-picker").inputValue(), "default", "the session is not in yolo");
  await askedThenRefused(chat, "e2e-yolo-edit: write yolo.txt", path.join(env.workspace, "yolo.txt"));
  // The diff editor the edit opened is closed by the refusal; the workbench is free again.
  await wb.page.locator(".monaco-diff-editor").waitFor({ state: "detached", timeout: WAIT_MS }).catch(() => {});
  await chat.newSession();
  await askedThenRefused(chat, "e2e-yolo-shell: touch the marker", path.join(env.workspace, "yolo-marker"));
}

/** checkTrace: the trace channel shows the permission round trip, verbose with JSON, and neither it nor the log holds SECRET. */
export async function checkTrace({ env }) {
  const channel = (name) => env.server.outputChannel(name);
  const trace = await waitFor(
    async () => {
      const t = await channel("Companion ACP Trace");
      return /← request session\/request_permission/.test(t) && /→ response session\/request_permission/.test(t) ? t : false;
    },
    { what: async () => `the trace channel to show the permission round trip:\n${(await channel("Companion ACP Trace")).slice(-2000)}` },
  );
  assert.match(trace, /→ request initialize id=\S+ \(\d+ bytes\)/);
  assert.match(trace, /→ request session\/prompt id=\S+ \(\d+ bytes\)/);
  assert.match(trace, /← notification session\/update \(\d+ bytes\)/);
  assert.match(trace, /^\{"jsonrpc":"2.0".*"method":"session\/prompt"/m, "verbose adds each message's JSON");
  const log = await waitFor(async () => {
    const l = await channel("Companion");
    return /\[agent\] .*level=DEBUG/.test(l) ? l : false;
  }, { what: async () => `agent log lines in "Companion":\n${(await channel("Companion")).slice(-2000)}` });
  for (const text of [trace, log]) assert.ok(!text.includes(SECRET), "the API key never reaches the trace or the log");
}
