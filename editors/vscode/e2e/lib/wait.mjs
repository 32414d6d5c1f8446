// Polling waits for effects outside the browser (files on disk, logs).

import { readFile } from "node:fs/promises";
import { WAIT_MS } from "./workbench.mjs";

/**
 * waitFor polls check() until it returns a value other than undefined/false
 * and returns it; after ms it throws with what() describing the last state.
 */
export async function waitFor(check, { ms = WAIT_MS, what = () => "condition" } = {}) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${await what()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * waitForFile waits until file exists (and, with expected, holds exactly
 * that text) and returns its content.
 */
export async function waitForFile(file, expected) {
  let last;
  return waitFor(
    async () => {
      try {
        last = await readFile(file, "utf8");
      } catch {
        return undefined;
      }
      return expected === undefined || last === expected ? last : undefined;
    },
    { what: () => `${file} to hold ${JSON.stringify(expected)} (now ${JSON.stringify(last)})` },
  );
}
