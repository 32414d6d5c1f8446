// "Changed this turn" in headless Chromium: after the recorded turn (it
// edits main.go) the list shows the file with its counts; Diff asks the
// extension for VS Code's diff, Revert asks it to put the file back, and
// the list closes once every file is decided. It never takes the keyboard.

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

const MAIN_GO = "/home/user/project/main.go";

test("after a turn that edited a file the list offers its diff, Keep and Revert; Revert posts the text from before the turn", async () => {
  const page = await open(browser, server.url);
  await page.click("#prompt");
  await deliver(page, fx.live);
  const row = page.locator(`#changes .change[data-path="${MAIN_GO}"]`);
  await row.waitFor();
  assert.match(await page.locator("#changes .changes-title").innerText(), /Changed this turn \(1 file\)/);
  assert.equal(await row.locator(".diff-stat-add").innerText(), "+1");
  assert.equal(await row.locator(".diff-stat-del").innerText(), "−1");
  assert.equal(await page.evaluate(() => document.activeElement?.id), "prompt", "the list does not take the keyboard");

  await row.locator("a.change-diff").click();
  await waitPosted(page, "showChange", { path: MAIN_GO, oldText: 'package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Println("hi")\n}\n' });
  await row.locator("button.change-revert").click();
  await waitPosted(page, "revertChanges", { files: [{ path: MAIN_GO, oldText: 'package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Println("hi")\n}\n' }] });
  await page.locator("#changes").waitFor({ state: "hidden" });
});

test("Keep all closes the list without touching a file; a replayed session shows no list", async () => {
  const page = await open(browser, server.url);
  await deliver(page, fx.live);
  await page.locator("#changes .change").first().waitFor();
  await page.locator("#changes button.changes-keep-all").click();
  await page.locator("#changes").waitFor({ state: "hidden" });
  assert.equal(await page.evaluate(() => window.__posted.some((m) => m.type === "revertChanges")), false);

  const replay = await open(browser, server.url);
  await deliver(replay, fx.replay);
  await replay.locator("#messages .tool-call").first().waitFor();
  assert.equal(await replay.locator("#changes").isHidden(), true);
});
