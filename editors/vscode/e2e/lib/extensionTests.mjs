// Runs an extension's own test suite inside the real extension host of
// code-server, the way `code --extensionTestsPath` does on the desktop: the
// workbench is opened with a development payload, and the smoke-test driver
// (code-server started with enable-smoke-test-driver) reports the suite's
// end through window.codeAutomationExit.

import { format } from "node:util";
import { openWorkbench } from "./workbench.mjs";

/** SUITE_TIMEOUT_MS bounds one whole suite run. */
export const SUITE_TIMEOUT_MS = Number(process.env.COMPANION_E2E_SUITE_TIMEOUT_MS ?? 180_000);

/**
 * runExtensionTests loads extensionDir as a development extension, runs the
 * module at testsPath (exports run(): Promise) and resolves to
 * { code, log }: code 0 when the suite passed, else non-zero; log is what
 * the suite printed (console output is forwarded through codeAutomationLog).
 */
export async function runExtensionTests(browser, server, { extensionDir, testsPath, folder }) {
  const log = [];
  let finish;
  const exited = new Promise((resolve) => (finish = resolve));
  const payload = [
    ["extensionDevelopmentPath", server.remoteUri(extensionDir)],
    ["extensionTestsPath", server.remoteUri(testsPath)],
    ["skipWelcome", "true"],
  ];
  const exposed = {
    codeAutomationExit: (code) => finish(Number(code)),
    codeAutomationLog: (type, args) => log.push(formatLog(type, args)),
  };
  const wb = await openWorkbench(browser, server, { folder, payload, exposed });
  try {
    const code = await withTimeout(exited, SUITE_TIMEOUT_MS, `extension tests ${testsPath}`);
    return { code, log: log.join("\n") };
  } finally {
    await wb.close();
  }
}

// formatLog renders one console call of the extension host; its arguments
// are console.log's, printf-style format string included.
function formatLog(type, args) {
  const parts = Array.isArray(args) ? args : [args];
  return format(...parts);
}

function withTimeout(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no result after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
