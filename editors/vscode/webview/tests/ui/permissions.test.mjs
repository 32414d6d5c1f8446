// The compact permission card in headless Chromium: what it shows, its
// keyboard answers, and that it never takes the keyboard from the prompt box.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { deliver, fixture, launch, open, startServer, waitPosted } from "./harness.mjs";

let server;
let browser;
let fx;

before(async () => {
  fx = await fixture();
  server = await startServer();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

test("a permission card answers from the keyboard without taking it: Enter allows this time, Esc rejects; an edit's card has Review", async () => {
  const page = await open(browser, server.url);
  await deliver(page, fx.live.slice(0, 2)); // status ready, session
  const perms = fx.live.filter((m) => m.type === "permission");
  const edit = perms.find((p) => p.inDiffEditor);
  const exec = perms.find((p) => !p.inDiffEditor);
  // The user is typing the next prompt when the card arrives: the box keeps the keyboard.
  await page.click("#prompt");
  await page.keyboard.type("next ");
  await deliver(page, [edit]);
  const card = page.locator(`.permission[data-request-id="${edit.requestId}"]`);
  await card.waitFor();
  await page.keyboard.type("prompt");
  assert.equal(await page.inputValue("#prompt"), "next prompt");
  assert.equal(await page.evaluate(() => document.activeElement?.id), "prompt");
  // Review asks the extension to bring the diff editor to the front.
  await card.locator("button.permission-review").click();
  await waitPosted(page, "reviewDiff", { requestId: edit.requestId });
  // Enter on the focused card allows this time.
  await card.focus();
  await page.keyboard.press("Enter");
  const allow = edit.options.find((o) => o.kind === "allow_once");
  await waitPosted(page, "permissionResponse", { requestId: edit.requestId, optionId: allow.optionId });
  await page.waitForSelector(`.permission[data-request-id="${edit.requestId}"][data-state="answered"]`);
  // With nothing focused, Esc rejects the newest pending card.
  await deliver(page, [exec]);
  const second = page.locator(`.permission[data-request-id="${exec.requestId}"]`);
  await second.waitFor();
  await page.evaluate(() => document.activeElement?.blur());
  await page.keyboard.press("Escape");
  const reject = exec.options.find((o) => o.kind === "reject_once");
  await waitPosted(page, "permissionResponse", { requestId: exec.requestId, optionId: reject.optionId });
  assert.deepEqual(await page.problems(), [], "console errors or CSP violations");
});
