// The browser the webview UI tests and the end-to-end suite drive with
// playwright-core, found one way for both (each passes its own override:
// CHROMIUM_PATH for the webview tests, CHROMIUM for the end-to-end suite).

import { existsSync } from "node:fs";

/**
 * BROWSERS are Debian's, in order of preference: Chromium's headless shell
 * (the headless browser Playwright itself uses; the webview UI tests take
 * half the CPU on it that they take on the full browser), then Chromium.
 */
const BROWSERS = ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"];

/** CHROMIUM_ARGS keep the browser offline and free of first-run work. */
export const CHROMIUM_ARGS = [
  "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
];

/** chromiumPath is override when set, else the first of BROWSERS installed; it throws when there is none. */
export function chromiumPath(override) {
  const bin = override || BROWSERS.find((p) => existsSync(p)) || BROWSERS[0];
  if (!existsSync(bin)) throw new Error(`no browser at ${bin}: apt-get install -y chromium-headless-shell`);
  return bin;
}
