// Runs the extension's own mocha suite (editors/vscode/test/suite, compiled
// to out/test/suite/index.js) inside the real extension host of code-server,
// with editors/vscode loaded as the development extension. The suite takes
// the companion binary from COMPANION_BIN, which the extension host inherits.

import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { startCodeServer } from "../lib/codeServer.mjs";
import { EXTENSION_DIR, companionBin } from "../lib/env.mjs";
import { runExtensionTests } from "../lib/extensionTests.mjs";
import { launchBrowser } from "../lib/workbench.mjs";

const SUITE = path.join(EXTENSION_DIR, "out", "test", "suite", "index.js");
let server, browser, workspace;

before(async () => {
  companionBin();
  if (!existsSync(SUITE)) throw new Error(`${SUITE} is missing: build the extension's tests first (e2e/ci.sh does)`);
  workspace = await mkdtemp(path.join(os.tmpdir(), "companion-e2e-suite-"));
  // A developer's home with a user setting the scripted agent cannot run
  // with: the suite must give the agent a home of its own.
  const devHome = path.join(workspace, ".dev-home");
  await mkdir(path.join(devHome, ".config", "companion"), { recursive: true });
  await writeFile(path.join(devHome, ".config", "companion", "settings.json"), JSON.stringify({ provider: "openai" }));
  server = await startCodeServer({ workspace, env: { HOME: devHome, XDG_CONFIG_HOME: path.join(devHome, ".config") } });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
  if (workspace) await rm(workspace, { recursive: true, force: true });
});

test("the extension's mocha suite passes in the real extension host", async () => {
  const res = await runExtensionTests(browser, server, { extensionDir: EXTENSION_DIR, testsPath: SUITE, folder: workspace });
  console.log(res.log);
  assert.equal(res.code, 0, `mocha suite failed (exit ${res.code}):\n${res.log}`);
  // mocha's spec reporter ends with "N passing": a suite that ran nothing fails too.
  const passing = Number(/(\d+) passing/.exec(res.log)?.[1] ?? 0);
  assert.ok(passing > 0, `the mocha suite ran no test:\n${res.log}`);
});
