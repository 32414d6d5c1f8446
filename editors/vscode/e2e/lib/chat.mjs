// Drives companion's chat webview through the stable selectors of
// editors/vscode/webview/SELECTORS.md, and the VS Code parts the chat opens
// (diff editor, terminal panel).

import { WAIT_MS } from "./workbench.mjs";

/** EXTENSION_ID is the id of the extension under test (CONTRACT.md). */
export const EXTENSION_ID = "companion.companion";

/** Chat is the companion sidebar chat of one workbench page. */
export class Chat {
  constructor(workbench) {
    this.wb = workbench;
    this.page = workbench.page;
    this.frame = workbench.webview(EXTENSION_ID);
  }

  /** open reveals the chat view and waits until the agent is ready. */
  async open() {
    await this.wb.runCommand("Companion: Open Chat");
    await this.frame.locator('#status[data-state="ready"]').waitFor({ timeout: WAIT_MS });
  }

  /** newSession starts a fresh session (clean history) and waits for it. */
  async newSession() {
    const before = await this.root().getAttribute("data-session-id");
    // A session nothing was sent in is fresh already: the chat keeps it
    // (controller.ts freshSession), so its id stays.
    const fresh = (await this.frame.locator("#messages .msg-user").count()) === 0;
    await this.frame.locator("button#new-session").click();
    if (!fresh) {
      await this.frame
        .locator(`#root[data-session-id]:not([data-session-id="${before ?? ""}"])`)
        .waitFor({ timeout: WAIT_MS });
    }
    await this.waitIdle();
  }

  /** setMode picks the approval mode of the current session and waits until the picker shows it. */
  async setMode(mode) {
    const picker = this.frame.locator("select#mode-picker");
    await picker.selectOption(mode);
    await picker.filter({ has: this.frame.locator(`option[value="${mode}"]:checked`) }).waitFor({ timeout: WAIT_MS });
  }

  /** send types text into the prompt box and presses the send button. */
  async send(text) {
    await this.frame.locator("textarea#prompt").fill(text);
    await this.frame.locator("button#send").click();
  }

  root() {
    return this.frame.locator("#root");
  }

  /** waitTurn waits until the root says the turn is state ("running" / "idle"). */
  async waitTurn(state) {
    await this.frame.locator(`#root[data-turn="${state}"]`).waitFor({ timeout: WAIT_MS });
  }

  waitIdle() {
    return this.waitTurn("idle");
  }

  /** agentMessage is the agent message holding text (a locator; wait on it). */
  agentMessage(text) {
    return this.frame.locator("#messages .msg-agent", { hasText: text });
  }

  /** pendingPermission is the permission card still waiting for an answer. */
  pendingPermission() {
    return this.frame.locator('#messages .permission[data-state="pending"]').last();
  }

  /** answerPermission clicks the option of kind (allow_once, reject_once, ...) in the pending card. */
  async answerPermission(kind) {
    const card = this.pendingPermission();
    await card.waitFor({ timeout: WAIT_MS });
    const option = card.locator(`button.permission-option[data-option-kind="${kind}"]`);
    // The compact card shows the primary choice; the rest are under "More".
    if (!(await option.isVisible())) await card.locator("button.permission-more").click();
    await option.click();
  }

  /** transcriptText is the whole message list's text, for failure messages. */
  async transcriptText() {
    return this.frame.locator("#messages").innerText({ timeout: 2_000 }).catch((e) => `(no transcript: ${e.message})`);
  }
}
