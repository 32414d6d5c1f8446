// A window reload, as a user does it: the conversation that was open comes
// back (the extension loads the last open session) as it was shown, with the
// permission answers given, the "Cancelled." of a cancelled turn and a
// command's output and exit status (its terminal is gone: no link to it);
// the history holds only sessions something was sent in (no "New chat" /
// untitled entries left by reloads or empty new sessions), titles are plain
// words, and a user message's code fence is shown as code. The time from
// reload to a usable prompt box is logged (never asserted: wall time).

import assert from "node:assert/strict";
import { test } from "node:test";
import { WAIT_MS } from "../lib/workbench.mjs";

/** reload reloads the window and returns how long each stage took (ms). */
async function reload({ wb, chat }) {
  const t0 = Date.now();
  await wb.page.reload({ timeout: 2 * WAIT_MS, waitUntil: "domcontentloaded" });
  await wb.page.locator(".monaco-workbench").waitFor({ timeout: 2 * WAIT_MS });
  const workbench = Date.now() - t0;
  await chat.frame.locator("textarea#prompt").waitFor({ state: "visible", timeout: 2 * WAIT_MS });
  const box = Date.now() - t0;
  await chat.frame.locator('#status[data-state="ready"]').waitFor({ timeout: 2 * WAIT_MS });
  const ready = Date.now() - t0;
  await chat.frame.locator('#messages[aria-busy="false"]').waitFor({ timeout: WAIT_MS });
  console.log(`reload timing: workbench ${workbench} ms, prompt box ${box} ms, agent ready ${ready} ms, conversation ${Date.now() - t0} ms`);
}

/**
 * history opens the history list, waits until it lists sessionId (a list
 * shown earlier stays until the fresh one arrives) and returns its entries
 * ({id, title}), then closes it.
 */
async function history(chat, sessionId) {
  await chat.frame.locator("button#history-toggle").click();
  const list = chat.frame.locator("#history-list");
  await list.locator(`button.history-entry[data-session-id="${sessionId}"]`).waitFor({ timeout: WAIT_MS });
  const entries = await list.locator("button.history-entry").evaluateAll((els) =>
    els.map((el) => ({ id: el.getAttribute("data-session-id"), title: el.querySelector(".history-title")?.textContent ?? "" })));
  await chat.frame.locator("button#history-toggle").click();
  return entries;
}

/** register adds the flow as a test of ctx's workbench (see 2-chat.test.mjs). */
export function register(ctx) {
  test("a reload brings back the open conversation as shown: answers, Cancelled., a command's output; the history keeps only sessions with a prompt", () =>
    ctx.flow("reload", async ({ wb, chat }) => {
      await chat.newSession();
      await chat.send("**e2e-reload** check:\n```js\nconst answer = 42;\n```");
      const user = chat.frame.locator("#messages .msg-user", { hasText: "e2e-reload" });
      // The fence is shown as code, not as raw backticks.
      await user.locator("pre code", { hasText: "const answer = 42;" }).waitFor({ timeout: WAIT_MS });
      assert.doesNotMatch(await user.innerText(), /```/);
      await chat.agentMessage("e2e-reload").waitFor({ timeout: WAIT_MS });
      await chat.waitIdle();
      // A command the user allowed, then a turn the user cancelled.
      await chat.send("e2e-rl-shell: run the marker command");
      await chat.answerPermission("allow_once");
      await chat.agentMessage("The reload command ran.").waitFor({ timeout: WAIT_MS });
      await chat.waitIdle();
      await chat.send("e2e-rl-cancel: never finish");
      await chat.agentMessage("Still working").waitFor({ timeout: WAIT_MS });
      await chat.frame.locator("button#cancel").click();
      await chat.frame.locator('#messages .system-line[data-kind="turn-end"]', { hasText: "Cancelled." }).waitFor({ timeout: WAIT_MS });
      await chat.waitIdle();
      const sessionId = await chat.root().getAttribute("data-session-id");
      // An empty new session, pressed twice: the empty one is reused (not
      // multiplied), and neither a reload nor the history keeps it.
      await chat.newSession();
      const empty = await chat.root().getAttribute("data-session-id");
      await chat.frame.locator("button#new-session").click();
      await chat.frame.locator('#messages[aria-busy="false"]').waitFor({ timeout: WAIT_MS });
      assert.equal(await chat.root().getAttribute("data-session-id"), empty);

      // One reload (a window start is the dearest step here): the conversation comes back as shown.
      await reload({ wb, chat });
      await chat.frame.locator(`#root[data-session-id="${sessionId}"]`).waitFor({ timeout: WAIT_MS });
      await chat.frame.locator("#messages .msg-user pre code", { hasText: "const answer = 42;" }).waitFor({ timeout: WAIT_MS });
      await chat.agentMessage("e2e-reload").waitFor({ timeout: WAIT_MS });
      const answer = chat.frame.locator('#messages .permission[data-state="answered"] .permission-answer');
      assert.deepEqual(await answer.allInnerTexts(), ["Answered: Allow this time"], await chat.transcriptText());
      await chat.frame.locator('#messages .system-line[data-kind="turn-end"]', { hasText: "Cancelled." }).waitFor({ timeout: WAIT_MS });
      const shell = chat.frame.locator('#messages .tool-call[data-kind="execute"]');
      await shell.locator("details.tool-output-wrap summary", { hasText: "exit code 0" }).waitFor({ timeout: WAIT_MS });
      assert.match(await shell.locator("pre.tool-output").textContent(), /e2e-rl-36/);
      assert.equal(await shell.locator("a.terminal-link").count(), 0, "no link to a terminal that is gone");

      const entries = await history(chat, sessionId);
      assert.ok(!entries.some((e) => e.id === empty), `the empty session is listed: ${JSON.stringify(entries)}`);
      assert.ok(entries.every((e) => e.title && !/^(New chat|Untitled)/i.test(e.title)), `history: ${JSON.stringify(entries)}`);
      assert.deepEqual(entries.filter((e) => e.id === sessionId).map((e) => e.title), ["e2e-reload check:"]);
      assert.equal(await chat.frame.locator("#session-title").innerText(), "e2e-reload check:");
    }));
}
