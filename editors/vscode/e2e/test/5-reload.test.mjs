// A window reload, as a user does it: the conversation that was open comes
// back (the extension loads the last open session), the history holds only
// sessions something was sent in (no "New chat" / untitled entries left by
// reloads or empty new sessions), titles are plain words, and a user
// message's code fence is shown as code. The time from reload to a usable
// prompt box is measured and logged (never asserted: wall time).

import assert from "node:assert/strict";
import path from "node:path";
import { after, before, test } from "node:test";
import { withArtifacts } from "../lib/artifacts.mjs";
import { Chat } from "../lib/chat.mjs";
import { FIXTURES_DIR } from "../lib/env.mjs";
import { closeChatWorkbench, openChatWorkbench, WAIT_MS } from "../lib/workbench.mjs";

let env, browser, wb, chat;

before(async () => {
  ({ env, browser, wb } = await openChatWorkbench({ script: path.join(FIXTURES_DIR, "flows.json") }));
  chat = new Chat(wb);
  await flow("open", () => chat.open());
});

after(() => closeChatWorkbench({ env, browser, wb }));

function flow(name, fn) {
  return withArtifacts(name, { page: wb?.page, chat, server: env?.server }, fn);
}

/** reload reloads the window and returns how long each stage took (ms). */
async function reload() {
  const t0 = Date.now();
  await wb.page.reload();
  await wb.page.locator(".monaco-workbench").waitFor({ timeout: WAIT_MS });
  const workbench = Date.now() - t0;
  await chat.frame.locator("textarea#prompt").waitFor({ state: "visible", timeout: WAIT_MS });
  const box = Date.now() - t0;
  // The page's own first paint, on the same clock: Playwright's polling adds up to half a second.
  const painted = await chat.frame.locator("body").evaluate((_, start) => {
    const fcp = performance.getEntriesByType("paint").find((e) => e.name === "first-contentful-paint");
    return fcp ? Math.round(performance.timeOrigin + fcp.startTime - start) : -1;
  }, t0);
  await chat.frame.locator('#status[data-state="ready"]').waitFor({ timeout: WAIT_MS });
  const ready = Date.now() - t0;
  await chat.frame.locator('#messages[aria-busy="false"]').waitFor({ timeout: WAIT_MS });
  return { workbench, box, painted, ready, t0 };
}

/** historyTitles opens the history list and returns its entries' titles, then closes it. */
async function historyTitles() {
  await chat.frame.locator("button#history-toggle").click();
  const list = chat.frame.locator("#history-list");
  await list.locator("button.history-entry, li.history-empty").first().waitFor({ timeout: WAIT_MS });
  await chat.frame.locator("#history-list li:not(:has-text('Loading'))").first().waitFor({ timeout: WAIT_MS });
  const titles = await list.locator("button.history-entry .history-title").allInnerTexts();
  await chat.frame.locator("button#history-toggle").click();
  return titles;
}

test("a reload brings back the open conversation; the history keeps only sessions with a prompt", () =>
  flow("reload", async () => {
    const prompt = "**e2e-reload** check:\n```js\nconst answer = 42;\n```";
    await chat.send(prompt);
    const user = chat.frame.locator("#messages .msg-user", { hasText: "e2e-reload" });
    await user.waitFor({ timeout: WAIT_MS });
    // The fence is shown as code, not as raw backticks.
    await user.locator("pre code", { hasText: "const answer = 42;" }).waitFor({ timeout: WAIT_MS });
    assert.doesNotMatch(await user.innerText(), /```/);
    await chat.agentMessage("e2e-reload").waitFor({ timeout: WAIT_MS });
    await chat.waitIdle();
    const sessionId = await chat.root().getAttribute("data-session-id");

    for (let i = 0; i < 2; i++) {
      const t = await reload();
      console.log(`reload timing: workbench ${t.workbench} ms, prompt box painted ${t.painted} ms (seen ${t.box} ms), agent ready ${t.ready} ms`);
      // The conversation is back in the same session.
      await chat.frame.locator(`#root[data-session-id="${sessionId}"]`).waitFor({ timeout: WAIT_MS });
      await chat.frame.locator("#messages .msg-user pre code", { hasText: "const answer = 42;" }).waitFor({ timeout: WAIT_MS });
      await chat.agentMessage("e2e-reload").waitFor({ timeout: WAIT_MS });
      console.log(`reload timing: conversation restored ${Date.now() - t.t0} ms`);
    }

    // An empty new session, pressed twice, then a reload: still one entry, titled in plain words.
    await chat.newSession();
    const empty = await chat.root().getAttribute("data-session-id");
    await chat.frame.locator("button#new-session").click(); // the empty one is reused, not multiplied
    await wb.page.waitForTimeout(500);
    assert.equal(await chat.root().getAttribute("data-session-id"), empty);
    await reload();
    await chat.frame.locator(`#root[data-session-id="${sessionId}"]`).waitFor({ timeout: WAIT_MS });
    const titles = await historyTitles();
    assert.deepEqual(titles, ["e2e-reload check:"], `history: ${JSON.stringify(titles)}`);
    assert.equal(await chat.frame.locator("#session-title").innerText(), "e2e-reload check:");
  }));
