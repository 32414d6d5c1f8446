// Drives the VS Code workbench in headless Chromium with playwright-core:
// opening it, running commands through the command palette, and reaching
// into sidebar webviews (two nested iframes).

import { chromium } from "playwright-core";
import { launchOptions } from "../../scripts/browser.mjs";
import { startCompanionServer } from "./extension.mjs";

/** WAIT_MS bounds one UI wait (an element showing up, a text arriving). */
export const WAIT_MS = Number(process.env.COMPANION_E2E_WAIT_MS ?? 30_000);

/** launchBrowser starts Debian's Chromium headless, offline-friendly. */
export function launchBrowser() {
  return chromium.launch(launchOptions());
}

/**
 * openWorkbench opens a new page on the server with folder open and waits
 * for the workbench. payload, when given, is VS Code's development payload
 * (list of [key, value]); before navigating, exposed holds functions the
 * page may call (codeAutomationExit / codeAutomationLog for extension tests).
 */
export async function openWorkbench(browser, server, { folder, payload, exposed = {} } = {}) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  for (const [name, fn] of Object.entries(exposed)) await page.exposeFunction(name, fn);
  const url = new URL(server.url);
  if (folder) url.searchParams.set("folder", folder);
  if (payload) url.searchParams.set("payload", JSON.stringify(payload));
  // A window's first load is the slowest step of the suite (megabytes of
  // script on a loaded machine): wait for the workbench itself, not for the
  // page's every resource, and allow it twice a UI wait.
  await page.goto(url.toString(), { timeout: 2 * WAIT_MS, waitUntil: "domcontentloaded" });
  await page.locator(".monaco-workbench").waitFor({ timeout: 2 * WAIT_MS });
  return new Workbench(page, context);
}

/** Workbench wraps one page showing the VS Code workbench. */
export class Workbench {
  constructor(page, context) {
    this.page = page;
    this.context = context;
  }

  /**
   * focusWorkbench moves keyboard focus out of any webview (which swallows
   * shortcuts) by clicking the active editor tab, else the editor area.
   */
  async focusWorkbench() {
    const tab = this.page.locator(".tabs-container .tab.active").first();
    if (await tab.isVisible()) {
      await tab.click();
      // A press on the tabs focuses the editor from a timer, which on a busy
      // machine can fire after the next key and close a palette opened
      // meanwhile: wait until the focus has moved from the tab into the group.
      await this.page
        .waitForFunction(() => {
          const a = document.activeElement;
          return !!a?.closest(".editor-group-container") && !a.closest(".title");
        }, null, { timeout: 2_000 })
        .catch(() => {});
    } else {
      await this.page.locator(".part.editor").first().click({ position: { x: 20, y: 20 } });
    }
    // A pointer left resting on the tab opens its hover a moment later,
    // which takes focus and closes a palette opened meanwhile.
    await this.page.mouse.move(1, 1);
  }

  /**
   * runCommand runs a command by its palette label ("Category: Title") and
   * fails when the palette has no such entry.
   */
  async runCommand(label) {
    // The palette lists the commands known when it opens; right after
    // start-up an extension's may not be there yet, so reopen until they are.
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const row = await this.openPaletteAt(label);
      try {
        await row.waitFor({ timeout: 2_000 });
      } catch (err) {
        await this.page.keyboard.press("Escape");
        if (Date.now() > deadline) throw new Error(`no command "${label}" in the palette: ${err.message}`);
        continue;
      }
      await row.click();
      await this.page.locator(".quick-input-widget").waitFor({ state: "hidden", timeout: WAIT_MS });
      return;
    }
  }

  /**
   * pickInPalette clicks the palette entry label without waiting for the
   * palette to close (an entry such as "Go to File" turns it into another
   * picker). A palette that closes under the pointer, because something
   * took focus as it opened, is opened again.
   */
  async pickInPalette(label) {
    for (let attempt = 1; ; attempt++) {
      const row = await this.openPaletteAt(label);
      try {
        await row.click({ timeout: 5_000 });
        return;
      } catch (err) {
        if (attempt === 3) throw err;
        await this.page.keyboard.press("Escape");
      }
    }
  }

  // openPaletteAt opens the command palette filtered on label and returns
  // the locator of the matching entry.
  async openPaletteAt(label) {
    const input = this.page.locator(".quick-input-widget input.input");
    // The palette closes when something takes focus as it opens (a hover,
    // a notification): open it again then.
    for (let attempt = 1; ; attempt++) {
      await this.focusWorkbench();
      await this.page.keyboard.press("F1");
      try {
        await input.waitFor({ timeout: WAIT_MS });
        await input.fill(`>${label}`, { timeout: 5_000 });
        break;
      } catch (err) {
        if (attempt === 3) throw err;
        await this.page.keyboard.press("Escape");
      }
    }
    return this.page.locator(".quick-input-list .monaco-list-row", { hasText: label }).first();
  }

  /** openFile opens a workspace file by name through Go to File and waits for its tab. */
  async openFile(name) {
    await this.pickInPalette("Go to File");
    await this.page.locator(".quick-input-widget input.input").fill(name);
    await this.page.locator(".quick-input-list .monaco-list-row", { hasText: name }).first().click();
    await this.page.locator(".quick-input-widget").waitFor({ state: "hidden", timeout: WAIT_MS });
    await this.page.locator(".tabs-container .tab.active", { hasText: name }).waitFor({ timeout: WAIT_MS });
  }

  /**
   * webview returns a FrameLocator for the document of the webview whose
   * outer iframe's src carries extensionId (VS Code puts it there), e.g.
   * "companion.companion". The content sits in iframe#active-frame inside.
   */
  webview(extensionId) {
    return this.page
      .frameLocator(`iframe.webview.ready[src*="extensionId=${extensionId}"]`)
      .frameLocator("iframe#active-frame");
  }

  /** close closes the page and its browser context. */
  async close() {
    await this.context.close().catch(() => {});
  }
}

/**
 * openChatWorkbench starts code-server for serverOpts (startCompanionServer's
 * options), opens its workspace in a fresh browser and returns the pieces
 * a suite's tests drive; closeChatWorkbench takes them down again (each
 * may be missing when opening failed part-way).
 */
export async function openChatWorkbench(serverOpts) {
  const env = await startCompanionServer(serverOpts);
  const browser = await launchBrowser();
  const wb = await openWorkbench(browser, env.server, { folder: env.workspace });
  return { env, browser, wb };
}

export async function closeChatWorkbench({ env, browser, wb }) {
  await wb?.close();
  await browser?.close();
  await env?.cleanup();
}
