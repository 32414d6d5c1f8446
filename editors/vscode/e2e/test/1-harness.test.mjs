// The harness tests itself on a tiny probe extension (fixtures/hello-extension)
// before anyone trusts it with the real one: an extension copied into the
// extensions dir loads, a click inside a sidebar webview reaches the
// extension host, the command palette runs a command, and the in-host test
// runner reports both a passing and a failing suite correctly, and stopping
// the server ends every process it started.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { startCodeServer } from "../lib/codeServer.mjs";
import { FIXTURES_DIR } from "../lib/env.mjs";
import { runExtensionTests } from "../lib/extensionTests.mjs";
import { launchBrowser, openWorkbench, WAIT_MS } from "../lib/workbench.mjs";
import { waitFor, waitForFile } from "../lib/wait.mjs";

const PROBE = path.join(FIXTURES_DIR, "hello-extension");
let server, browser, workspace;

before(async () => {
  workspace = await mkdtemp(path.join(os.tmpdir(), "companion-e2e-ws-"));
  server = await startCodeServer({ workspace, extensions: [PROBE] });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
  await rm(workspace, { recursive: true, force: true });
});

test("an installed extension's webview button and palette command reach the extension host", async () => {
  const wb = await openWorkbench(browser, server, { folder: workspace });
  try {
    await wb.page.locator('.activitybar a.action-label[aria-label^="Hello E2E"]').click();
    const view = wb.webview("companion-e2e.hello");
    await view.locator("#hello-button").click({ timeout: WAIT_MS });
    await view.locator("#reply", { hasText: "hello back" }).waitFor({ timeout: WAIT_MS });
    assert.equal(await waitForFile(path.join(workspace, "from-webview.txt")), "button clicked");

    await wb.runCommand("Hello E2E: Write Marker");
    assert.equal(await waitForFile(path.join(workspace, "from-command.txt")), "command ran");
  } finally {
    await wb.close();
  }
});

test("a passing extension-host suite exits 0", async () => {
  await rm(path.join(workspace, "from-command.txt"), { force: true });
  const res = await runExtensionTests(browser, server, {
    extensionDir: PROBE, testsPath: path.join(PROBE, "test", "pass.js"), folder: workspace,
  });
  assert.equal(res.code, 0, res.log);
  assert.equal(await readFile(path.join(workspace, "from-command.txt"), "utf8"), "command ran");
});

test("a failing extension-host suite exits non-zero", async () => {
  const res = await runExtensionTests(browser, server, {
    extensionDir: PROBE, testsPath: path.join(PROBE, "test", "fail.js"), folder: workspace,
  });
  assert.notEqual(res.code, 0, res.log);
});

test("stop() ends the server's whole family, a child in a session of its own included", async () => {
  const other = await startCodeServer({ workspace, extensions: [PROBE] });
  let detached;
  try {
    const wb = await openWorkbench(browser, other, { folder: workspace });
    await wb.runCommand("Hello E2E: Spawn Detached Child");
    const pidFile = path.join(workspace, "detached.pid");
    // Read until whole: the file may be seen created but not yet written.
    detached = await waitFor(async () => {
      const text = await readFile(pidFile, "utf8").catch(() => "");
      return /^\d+$/.test(text) ? Number(text) : undefined;
    });
    await wb.close();
    assert.ok(isAlive(detached), "the detached child runs");
  } finally {
    await other.stop();
  }
  assert.equal(isAlive(detached), false, "the detached child was ended");
  assert.deepEqual(other.familyPids(false), [], "nothing in the server's session or with its tag is left");
});

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return !readFileSync(`/proc/${pid}/stat`, "utf8").includes(") Z ");
  } catch {
    return false;
  }
}
