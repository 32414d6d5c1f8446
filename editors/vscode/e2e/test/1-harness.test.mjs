// The harness tests itself on a tiny probe extension (fixtures/hello-extension)
// before anyone trusts it with the real one: an extension copied into the
// extensions dir loads, a click inside a sidebar webview reaches the
// extension host, the command palette runs a command, the in-host test
// runner reports a failing suite as failed, and stopping the server ends
// every process it started. On the same server, the extension's own mocha
// suite (editors/vscode/test/suite, compiled to out/test/suite/index.js)
// then runs inside the real extension host with editors/vscode loaded as the
// development extension; it takes the companion binary from COMPANION_BIN,
// which the extension host inherits. One server for both: a server start
// and each window are the expensive parts.

import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { startCodeServer } from "../lib/codeServer.mjs";
import { EXTENSION_DIR, FIXTURES_DIR, companionBin } from "../lib/env.mjs";
import { runExtensionTests } from "../lib/extensionTests.mjs";
import { launchBrowser, openWorkbench, WAIT_MS } from "../lib/workbench.mjs";
import { waitFor, waitForFile } from "../lib/wait.mjs";

const PROBE = path.join(FIXTURES_DIR, "hello-extension");
const SUITE = path.join(EXTENSION_DIR, "out", "test", "suite", "index.js");
let server, browser, workspace, suiteWorkspace, detached;

before(async () => {
  companionBin();
  if (!existsSync(SUITE)) throw new Error(`${SUITE} is missing: build the extension's tests first (e2e/ci.sh does)`);
  workspace = await mkdtemp(path.join(os.tmpdir(), "companion-e2e-ws-"));
  suiteWorkspace = await mkdtemp(path.join(os.tmpdir(), "companion-e2e-suite-"));
  // A developer's home with a user setting the scripted agent cannot run
  // with: the suite must give the agent a home of its own.
  const devHome = path.join(suiteWorkspace, ".dev-home");
  await mkdir(path.join(devHome, ".config", "companion"), { recursive: true });
  await writeFile(path.join(devHome, ".config", "companion", "settings.json"), JSON.stringify({ provider: "openai" }));
  server = await startCodeServer({ workspace, extensions: [PROBE], env: { HOME: devHome, XDG_CONFIG_HOME: path.join(devHome, ".config") } });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
  for (const dir of [workspace, suiteWorkspace]) if (dir) await rm(dir, { recursive: true, force: true });
});

test("an installed extension's webview button and palette commands reach the extension host", async () => {
  const wb = await openWorkbench(browser, server, { folder: workspace });
  try {
    await wb.page.locator('.activitybar a.action-label[aria-label^="Hello E2E"]').click();
    const view = wb.webview("companion-e2e.hello");
    await view.locator("#hello-button").click({ timeout: WAIT_MS });
    await view.locator("#reply", { hasText: "hello back" }).waitFor({ timeout: WAIT_MS });
    assert.equal(await waitForFile(path.join(workspace, "from-webview.txt")), "button clicked");

    await wb.runCommand("Hello E2E: Write Marker");
    assert.equal(await waitForFile(path.join(workspace, "from-command.txt")), "command ran");

    // A child in a session of its own, for the last test: stopping the server must end it.
    await wb.runCommand("Hello E2E: Spawn Detached Child");
    const pidFile = path.join(workspace, "detached.pid");
    // Read until whole: the file may be seen created but not yet written.
    detached = await waitFor(async () => {
      const text = await readFile(pidFile, "utf8").catch(() => "");
      return /^\d+$/.test(text) ? Number(text) : undefined;
    });
    assert.ok(isAlive(detached), "the detached child runs");
  } finally {
    await wb.close();
  }
});

test("a failing extension-host suite exits non-zero", async () => {
  const res = await runExtensionTests(browser, server, {
    extensionDir: PROBE, testsPath: path.join(PROBE, "test", "fail.js"), folder: workspace,
  });
  assert.notEqual(res.code, 0, res.log);
});

test("the extension's mocha suite passes in the real extension host", async () => {
  const res = await runExtensionTests(browser, server, { extensionDir: EXTENSION_DIR, testsPath: SUITE, folder: suiteWorkspace });
  console.log(res.log);
  assert.equal(res.code, 0, `mocha suite failed (exit ${res.code}):\n${res.log}`);
  // mocha's spec reporter ends with "N passing": a suite that ran nothing fails too.
  const passing = Number(/(\d+) passing/.exec(res.log)?.[1] ?? 0);
  assert.ok(passing > 0, `the mocha suite ran no test:\n${res.log}`);
});

test("stop() ends the server's whole family, a child in a session of its own included", async () => {
  assert.ok(detached, "the first test started the detached child");
  await server.stop();
  assert.equal(isAlive(detached), false, "the detached child was ended");
  assert.deepEqual(server.familyPids(false), [], "nothing in the server's session or with its tag is left");
});

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return !readFileSync(`/proc/${pid}/stat`, "utf8").includes(") Z ");
  } catch {
    return false;
  }
}
