// End to end inside a real VS Code: the installed extension runs the real
// companion binary on a scripted model (fixtures/flows.json) and is driven
// through its sidebar chat like a person would. Every assertion is on a real
// effect: DOM text in the webview or the workbench, or the file on disk.
//
// The flows share one code-server and run in order; each starts a new
// session, so the model sees no other flow's history.

import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { after, before, test } from "node:test";
import { withArtifacts } from "../lib/artifacts.mjs";
import { Chat } from "../lib/chat.mjs";
import { FIXTURES_DIR } from "../lib/env.mjs";
import { waitFor } from "../lib/wait.mjs";
import { closeChatWorkbench, openChatWorkbench, WAIT_MS } from "../lib/workbench.mjs";

const ORIGINAL = "original line\n";
const KEEP = "keep me\n";
let env, browser, wb, chat;

before(async () => {
  ({ env, browser, wb } = await openChatWorkbench({
    script: path.join(FIXTURES_DIR, "flows.json"),
    files: {
      "notes.txt": ORIGINAL,
      "keep.txt": KEEP,
      "lines.txt": "line one\nline two\nline three\nline four\n",
      "mention.txt": "mentioned-secret-77\n",
    },
  }));
  chat = new Chat(wb);
  await flow("open", () => chat.open());
});

after(() => closeChatWorkbench({ env, browser, wb }));

// flow runs one flow's body, keeping screenshots and logs if it fails.
function flow(name, fn) {
  return withArtifacts(name, { page: wb?.page, chat, server: env?.server }, fn);
}

test("a prompt gets a streamed answer in the chat", () =>
  flow("stream", async () => {
    await chat.send("e2e-stream: say something");
    await chat.frame.locator("#messages .msg-user", { hasText: "e2e-stream" }).waitFor({ timeout: WAIT_MS });
    // The script spaces its four chunks 400 ms apart: the message is seen
    // part-way (for about 800 ms), then whole.
    await chat.frame
      .locator('#messages .msg-agent[data-streaming="true"]')
      .filter({ hasText: "Streaming an answer", hasNotText: "scripted model." })
      .waitFor({ timeout: WAIT_MS });
    const answer = chat.agentMessage("Streaming an answer from the scripted model.");
    await answer.waitFor({ timeout: WAIT_MS });
    await chat.waitIdle();
    assert.notEqual(await answer.getAttribute("data-streaming"), "true");
    await chat.frame.locator("#messages details.thought").waitFor({ timeout: WAIT_MS });
  }));

test("an edit is reviewed in the diff editor and the user's change is written on Accept", () =>
  flow("edit", async () => {
    await chat.newSession();
    await chat.send("e2e-edit: rewrite notes.txt");
    const diff = wb.page.locator(".monaco-diff-editor");
    await diff.waitFor({ timeout: WAIT_MS });
    await wb.page.locator(".tabs-container .tab.active", { hasText: "notes.txt ↔ companion proposal" }).waitFor({ timeout: WAIT_MS });
    await chat.frame.locator('#messages .permission[data-in-diff-editor="true"]').waitFor({ timeout: WAIT_MS });
    // ".lines-content > .view-lines": the text itself, not the view zones
    // that show deleted lines inline.
    const original = diff.locator(".editor.original .lines-content > .view-lines");
    const modified = diff.locator(".editor.modified .lines-content > .view-lines");
    await original.filter({ hasText: "original line" }).waitFor({ timeout: WAIT_MS });
    await modified.filter({ hasText: "agent line" }).waitFor({ timeout: WAIT_MS });

    // The user adds a line of their own in the proposal (the right side).
    await modified.click();
    await wb.page.keyboard.press("Control+End");
    await wb.page.keyboard.type("user line");
    await modified.filter({ hasText: "user line" }).waitFor({ timeout: WAIT_MS });

    // One vocabulary: the title bar button says what the card's first option says, and no label shows raw backticks.
    const options = await chat.pendingPermission().locator("button.permission-option").allInnerTexts();
    const allowOnce = await chat.pendingPermission().locator('button.permission-option[data-option-kind="allow_once"]').innerText();
    assert.ok(options.every((o) => !o.includes("`")), `option labels: ${JSON.stringify(options)}`);
    const accept = wb.page.locator('.editor-actions .action-label[aria-label^="Allow this time"]');
    assert.equal(allowOnce.trim(), "Allow this time", `the card's option matches the title bar (${JSON.stringify(options)})`);
    await accept.click();
    const file = path.join(env.workspace, "notes.txt");
    const text = await waitFor(
      async () => {
        const t = await readFile(file, "utf8");
        return t.includes("user line") ? t : undefined;
      },
      { what: async () => `notes.txt to hold the user's line (now ${JSON.stringify(await readFile(file, "utf8"))})` },
    );
    assert.match(text, /^agent line\nuser line\n?$/);
    // The script answers this only when the tool result tells the model
    // that the user changed the proposal (modifiedContent reached the agent).
    await chat.agentMessage("The edit is done, with your change.").waitFor({ timeout: WAIT_MS });
    await chat.waitIdle();
    await chat.frame.locator('#messages .tool-call[data-kind="edit"][data-status="completed"]').waitFor({ timeout: WAIT_MS });
    await diff.waitFor({ state: "detached", timeout: WAIT_MS });
  }));

test("a rejected edit leaves the file alone and the agent is told", () =>
  flow("reject", async () => {
    await chat.newSession();
    await chat.send("e2e-reject: rewrite keep.txt");
    const diff = wb.page.locator(".monaco-diff-editor");
    await diff.locator(".editor.modified .lines-content > .view-lines", { hasText: "unwanted" }).waitFor({ timeout: WAIT_MS });
    await wb.page.locator('.editor-actions .action-label[aria-label^="Reject"]').click();
    // The script answers this only when the tool result says the user rejected the call.
    await chat.agentMessage("Understood, keep.txt stays as it is.").waitFor({ timeout: WAIT_MS });
    await chat.waitIdle();
    assert.equal(await readFile(path.join(env.workspace, "keep.txt"), "utf8"), KEEP);
    await diff.waitFor({ state: "detached", timeout: WAIT_MS });
    // A user's decision, not a failure.
    const card = chat.frame.locator('#messages .tool-call[data-kind="edit"]').last();
    await chat.frame.locator('#messages .tool-call[data-kind="edit"][data-status="rejected"]').waitFor({ timeout: WAIT_MS });
    assert.equal(await card.locator(".tool-status").innerText(), "rejected");
  }));

test("an edit arriving while the user types the next prompt leaves the keyboard in the chat box; Review goes to it", () =>
  flow("typing", async () => {
    await chat.newSession();
    await chat.send("e2e-typing: rewrite typing.txt");
    // The user keeps typing the next prompt, a key at a time, while the edit arrives.
    const box = chat.frame.locator("textarea#prompt");
    await box.click();
    const diff = wb.page.locator(".monaco-diff-editor");
    const modified = diff.locator(".editor.modified .lines-content > .view-lines");
    const next = "then update the readme".repeat(8);
    let typed = "";
    for (const ch of next) {
      await wb.page.keyboard.type(ch);
      typed += ch;
      if (await modified.filter({ hasText: "agent typing line" }).isVisible()) break;
      await wb.page.waitForTimeout(60);
    }
    await modified.filter({ hasText: "agent typing line" }).waitFor({ timeout: WAIT_MS });
    await wb.page.keyboard.type(" and docs", { delay: 40 });
    typed += " and docs";
    assert.equal(await box.inputValue(), typed, "every key the user typed is in the chat box");
    assert.equal((await modified.innerText()).replace(/\u00a0/g, " ").trim(), "agent typing line", "no key landed in the proposal");
    // The card's Review button brings the diff editor to the front with the keyboard in it.
    const card = chat.pendingPermission();
    await card.locator("button.permission-review").click();
    await wb.page.waitForFunction(() => !!document.activeElement?.closest(".monaco-diff-editor"), null, { timeout: WAIT_MS });
    await wb.page.keyboard.press("Control+End");
    await wb.page.keyboard.type("reviewed");
    await modified.filter({ hasText: "reviewed" }).waitFor({ timeout: WAIT_MS });
    await wb.page.locator('.editor-actions .action-label[aria-label^="Allow this time"]').click();
    const file = path.join(env.workspace, "typing.txt");
    await waitFor(async () => ((await readFile(file, "utf8").catch(() => "")).includes("reviewed") ? true : undefined), { what: async () => "typing.txt to hold the reviewed text" });
    await chat.waitIdle();
    await box.fill("");
  }));

test("an approved shell command runs in a VS Code terminal", () =>
  flow("shell", async () => {
    await chat.newSession();
    await chat.send("e2e-shell: run the marker command");
    await chat.answerPermission("allow_once");
    // The terminal panel shows the command's output (not its text: the
    // command computes the number, so only a real run prints it).
    const terminal = wb.page.locator(".terminal-wrapper .xterm-rows", { hasText: "e2e-shell-42" });
    await terminal.waitFor({ timeout: WAIT_MS });
    await chat.agentMessage("The command ran.").waitFor({ timeout: WAIT_MS });
    await chat.waitIdle();
    await chat.frame.locator('#messages .tool-call[data-kind="execute"][data-status="completed"]').waitFor({ timeout: WAIT_MS });
    // The terminal's header keeps the command's quotes.
    await wb.page.locator(".terminal-wrapper .xterm-rows", { hasText: "-c 'echo e2e-shell-$((6*7))'" }).waitFor({ timeout: WAIT_MS });
    // The card shows the last lines and a link to the terminal (the link itself: webview and unit tests).
    const card = chat.frame.locator('#messages .tool-call[data-kind="execute"]').last();
    await card.locator(".terminal-tail", { hasText: "e2e-shell-42" }).waitFor({ timeout: WAIT_MS });
    assert.match(await card.locator(".tool-terminal").innerText(), /exit code 0/);
    await card.locator("a.terminal-link").waitFor({ timeout: WAIT_MS });
  }));

test("a tool call's location opens the file at its line; the chat survives hide and show", () =>
  flow("locate", async () => {
    await chat.newSession();
    await chat.send("e2e-locate: read the third line");
    await chat.agentMessage("Read the third line.").waitFor({ timeout: WAIT_MS });
    await chat.waitIdle();
    // read_file with offset 2 reports the location lines.txt:3.
    await chat.frame.locator('#messages .tool-call[data-kind="read"] a.tool-location[data-line="3"]').click();
    await wb.page.locator(".tabs-container .tab.active", { hasText: "lines.txt" }).waitFor({ timeout: WAIT_MS });
    await wb.page.locator("#status\\.editor\\.selection", { hasText: "Ln 3," }).waitFor({ timeout: WAIT_MS });

    // Another view replaces the chat in the sidebar, then the chat comes back
    // with its transcript, from its activity-bar icon as a user brings it back.
    await wb.page.locator('.activitybar a.action-label[aria-label^="Explorer"]').click();
    await chat.agentMessage("Read the third line.").waitFor({ state: "hidden", timeout: WAIT_MS });
    await wb.page.locator('.activitybar a.action-label[aria-label^="Companion"]').click();
    await chat.agentMessage("Read the third line.").waitFor({ timeout: WAIT_MS });
    await chat.frame.locator('#status[data-state="ready"]').waitFor({ timeout: WAIT_MS });
  }));

test("Add Selection to Chat quotes the selected lines in the prompt box", () =>
  flow("selection", async () => {
    await chat.newSession();
    // The file is open from the flow before; else "Go to File" opens it
    // (pickInPalette: it turns the palette into the file picker).
    const tab = wb.page.locator(".tabs-container .tab", { hasText: "lines.txt" }).first();
    if (await tab.isVisible()) {
      await tab.click();
    } else {
      await wb.pickInPalette("Go to File");
      await wb.page.locator(".quick-input-widget input.input").fill("lines.txt");
      await wb.page.locator(".quick-input-list .monaco-list-row", { hasText: "lines.txt" }).first().click();
      await wb.page.locator(".quick-input-widget").waitFor({ state: "hidden", timeout: WAIT_MS });
    }
    const line = wb.page.locator(".monaco-editor .view-line", { hasText: "line two" });
    await line.waitFor({ timeout: WAIT_MS });
    const prompt = chat.frame.locator("textarea#prompt");
    const quoted = async () => {
      const v = await prompt.inputValue();
      return v.includes("`lines.txt` line 2:") && v.includes("line two") ? v : undefined;
    };
    // A busy workbench can drop the selection or close the palette as the
    // command is picked: select and add again, a few times at most.
    for (let attempt = 1; ; attempt++) {
      await prompt.fill("");
      await line.click({ clickCount: 3 }); // the whole line
      await wb.page.locator("#status\\.editor\\.selection", { hasText: "selected" }).waitFor({ timeout: WAIT_MS });
      try {
        await wb.runCommand("Companion: Add Selection to Chat");
        await waitFor(quoted, {
          ms: 10_000,
          what: async () => `the prompt box to quote line 2 (now ${JSON.stringify(await prompt.inputValue())})`,
        });
        break;
      } catch (err) {
        if (attempt === 3) throw err;
        await wb.page.keyboard.press("Escape");
      }
    }
    await chat.frame.locator("button#send").click();
    await chat.agentMessage("line two").waitFor({ timeout: WAIT_MS });
    await chat.waitIdle();
  }));

test("slash commands come from the agent and an @ mention sends the file", () =>
  flow("mention", async () => {
    await chat.newSession();
    const prompt = chat.frame.locator("textarea#prompt");
    // The slash list is the agent's available_commands_update.
    await prompt.pressSequentially("/he");
    await chat.frame.locator('#completion[data-mode="slash"] .completion-item[data-value="help"]').waitFor({ timeout: WAIT_MS });
    await prompt.fill("");

    // The mention list comes from the workspace through the extension.
    await prompt.pressSequentially("e2e-mention: what does @mention");
    await chat.frame.locator('#completion[data-mode="mention"] .completion-item', { hasText: "mention.txt" }).click();
    await chat.frame.locator('#mentions .mention-chip[data-uri$="/mention.txt"]').waitFor({ timeout: WAIT_MS });
    await prompt.pressSequentially(" say?");
    await chat.frame.locator("button#send").click();
    // The script answers this only when the model request holds the file's text.
    await chat.agentMessage("The mentioned file holds the secret.").waitFor({ timeout: WAIT_MS });
    await chat.waitIdle();
  }));

test("the mode picker switches the agent to auto_edit: an edit is written without asking", () =>
  flow("mode", async () => {
    await chat.newSession();
    const picker = chat.frame.locator("select#mode-picker");
    await picker.selectOption("auto_edit");
    await picker.filter({ has: chat.frame.locator('option[value="auto_edit"]:checked') }).waitFor({ timeout: WAIT_MS });
    await chat.send("e2e-auto-edit: write auto.txt");
    // The script answers this only when the tool result says the file was created.
    await chat.agentMessage("auto.txt is written.").waitFor({ timeout: WAIT_MS });
    await chat.waitIdle();
    assert.equal(await readFile(path.join(env.workspace, "auto.txt"), "utf8"), "written without asking\n");
    assert.equal(await chat.frame.locator("#messages .permission").count(), 0, "no permission was asked");
  }));

test("cancel ends a hanging turn and leaves the chat usable", () =>
  flow("cancel", async () => {
    await chat.newSession();
    await chat.send("e2e-cancel: never finish");
    await chat.agentMessage("Working on it").waitFor({ timeout: WAIT_MS });
    await chat.waitTurn("running");
    const cancel = chat.frame.locator("button#cancel");
    await cancel.click();
    await chat.waitIdle();
    // The turn ended because the agent answered the prompt with stopReason "cancelled".
    await chat.frame.locator('#messages .system-line[data-kind="turn-end"]', { hasText: "Cancelled." }).waitFor({ timeout: WAIT_MS });
    assert.equal(await cancel.isVisible(), false, "the cancel button hides when the turn ends");
    await chat.send("after the cancel");
    await chat.agentMessage("You said: after the cancel").waitFor({ timeout: WAIT_MS });
    await chat.waitIdle();
  }));

test("a call loop detection blocked shows as a 'blocked' card between two separate messages", () =>
  flow("loop", async () => {
    await chat.newSession();
    await chat.send("e2e-loop: read keep.txt until it changes");
    await chat.agentMessage("I will stop repeating.").waitFor({ timeout: WAIT_MS });
    await chat.waitIdle();
    const blocked = chat.frame.locator('#messages .tool-call[data-status="blocked"]');
    await blocked.first().waitFor({ timeout: WAIT_MS });
    assert.equal(await blocked.first().locator(".tool-status").innerText(), "blocked");
    assert.match(await blocked.first().innerText(), /Blocked/);
    assert.equal(await chat.frame.locator('#messages .tool-call[data-status="failed"]').count(), 0, "no red 'failed' card");
    // The two model messages are two bubbles, the blocked calls between them.
    const messages = await chat.frame.locator("#messages .msg-agent").allInnerTexts();
    assert.deepEqual(messages.map((m) => m.trim()), ["Reading it again.", "I will stop repeating."]);
  }));

test("an image pasted into the chat box is attached and reaches the model", () =>
  flow("image", async () => {
    await chat.newSession();
    const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
    const prompt = chat.frame.locator("textarea#prompt");
    await prompt.fill("e2e-image: what is in this picture?");
    // What a paste of a copied image does: a paste event carrying an image file.
    await prompt.evaluate((el, data) => {
      const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(new File([bytes], "dot.png", { type: "image/png" }));
      el.dispatchEvent(new ClipboardEvent("paste", { clipboardData: dt, bubbles: true, cancelable: true }));
    }, png);
    await chat.frame.locator('#attachments .attachment[data-mime-type="image/png"]').waitFor({ timeout: WAIT_MS });
    await chat.frame.locator("button#send").click();
    // The script answers this only when the model request carries the image bytes.
    await chat.agentMessage("I see a tiny image.").waitFor({ timeout: WAIT_MS });
    await chat.waitIdle();
    await chat.frame.locator("#messages .msg-user img.user-image").waitFor({ timeout: WAIT_MS });
    assert.equal(await chat.frame.locator("#attachments").isHidden(), true, "the box is empty after sending");
  }));
