// The browser the webview UI tests and the end-to-end suite drive with
// playwright-core, chosen and launched one way for both.

import { existsSync } from "node:fs";

/**
 * BROWSERS are Debian's, in order of preference: Chromium's headless shell
 * (the headless browser Playwright itself uses; the webview UI tests take
 * half the CPU on it that they take on the full browser), then Chromium.
 */
const BROWSERS = ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"];

/** CHROMIUM_ARGS keep the browser offline and free of first-run work. */
const CHROMIUM_ARGS = [
  "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
];

/**
 * launchOptions are playwright-core's chromium.launch options: headless,
 * CHROMIUM_ARGS, and the browser at CHROMIUM_PATH when set, else the first
 * of BROWSERS installed. They throw, saying what to install, when there is
 * none, and when the end-to-end suite's old variable CHROMIUM is set alone.
 */
export function launchOptions() {
  if (process.env.CHROMIUM && !process.env.CHROMIUM_PATH) {
    throw new Error("CHROMIUM is now CHROMIUM_PATH: set that to the browser binary");
  }
  const bin = process.env.CHROMIUM_PATH || BROWSERS.find((p) => existsSync(p)) || BROWSERS[0];
  if (!existsSync(bin)) throw new Error(`no browser at ${bin}: apt-get install -y chromium-headless-shell`);
  return { executablePath: bin, headless: true, args: CHROMIUM_ARGS };
}
