// Where the end-to-end tests find their tools: the cache the install script
// fills (Node 24, code-server), the system Chromium, and the companion binary.

import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

/** E2E_DIR is editors/vscode/e2e. */
export const E2E_DIR = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

/** EXTENSION_DIR is editors/vscode (the extension under test). */
export const EXTENSION_DIR = path.dirname(E2E_DIR);

/** FIXTURES_DIR holds the scripted-model scripts and the harness's own test extension. */
export const FIXTURES_DIR = path.join(E2E_DIR, "fixtures");

/** CODE_SERVER_VERSION must match scripts/install.sh. */
export const CODE_SERVER_VERSION = "4.139.1";

/** NODE_VERSION (what code-server runs on) must match scripts/install.sh. */
export const NODE_VERSION = "24.21.0";

/** cacheDir is where scripts/install.sh put Node 24 and code-server. */
export function cacheDir() {
  return process.env.COMPANION_E2E_CACHE || path.join(os.homedir(), ".cache", "companion-e2e");
}

/** node24Home is the Node 24 install (bin/node, include/node). */
export function node24Home() {
  const platformPackage = `node-${process.platform}-${process.arch}`;
  return path.join(cacheDir(), `node-${NODE_VERSION}`, "node_modules", "node", "node_modules", platformPackage);
}

/** codeServerBin is the code-server launcher script; it needs Node 24 first on PATH. */
export function codeServerBin() {
  const bin = path.join(cacheDir(), `code-server-${CODE_SERVER_VERSION}-node-${NODE_VERSION}`, "node_modules", ".bin", "code-server");
  if (!existsSync(bin)) throw new Error(`code-server not found at ${bin}: run e2e/scripts/install.sh first`);
  return bin;
}

/** companionBin is the absolute path of the companion binary under test, from COMPANION_BIN. */
export function companionBin() {
  const bin = process.env.COMPANION_BIN;
  if (!bin) throw new Error("set COMPANION_BIN to the absolute path of the companion binary (ci.sh does)");
  if (!path.isAbsolute(bin) || !existsSync(bin)) throw new Error(`COMPANION_BIN=${bin} is not an existing absolute path`);
  return bin;
}

/**
 * agentAdvertises asks the binary itself (an ACP initialize) whether it
 * sets `agentCapabilities._meta.companion[flag]`, so a suite can skip what
 * the binary under test does not offer.
 */
export async function agentAdvertises(flag) {
  const child = spawn(companionBin(), ["acp"], { stdio: ["pipe", "pipe", "ignore"] });
  try {
    const lines = createInterface({ input: child.stdout });
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 1, clientCapabilities: {} } })}\n`);
    for await (const line of lines) {
      const msg = JSON.parse(line);
      if (msg.id === 1) return msg.result?.agentCapabilities?._meta?.companion?.[flag] === true;
    }
    return false;
  } finally {
    child.kill();
  }
}
