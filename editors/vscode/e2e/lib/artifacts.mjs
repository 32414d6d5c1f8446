// On a failing flow, keeps what a person needs to see why: a screenshot of
// the workbench, the chat transcript and the extension-host logs (which hold
// companion's stderr), under $COMPANION_E2E_ARTIFACTS (default e2e/artifacts).

import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { E2E_DIR } from "./env.mjs";

/** artifactsDir is where failure artifacts go. */
export function artifactsDir() {
  return process.env.COMPANION_E2E_ARTIFACTS || path.join(E2E_DIR, "artifacts");
}

/**
 * withArtifacts runs fn; when it throws, saves name.png, name.transcript.txt
 * and name.logs.txt, names them in the error, and rethrows.
 */
export async function withArtifacts(name, { page, chat, server }, fn) {
  try {
    return await fn();
  } catch (err) {
    const dir = artifactsDir();
    const base = path.join(dir, name.replace(/[^\w.-]+/g, "_"));
    await mkdir(dir, { recursive: true });
    await page?.screenshot({ path: `${base}.png`, fullPage: true }).catch(() => {});
    if (chat) await writeFile(`${base}.transcript.txt`, await chat.transcriptText());
    if (server) await writeFile(`${base}.logs.txt`, `${await server.exthostLogs()}\n=== code-server\n${await server.logTail(200)}`);
    err.message += `\n(artifacts: ${base}.*)`;
    throw err;
  }
}
