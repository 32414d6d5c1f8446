// Flows around the agent's tools and the prompt box: a location link, the
// view hidden and shown, Add Selection, slash commands and @ mentions, the
// mode picker, cancel, loop detection and a pasted image.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { waitFor } from "../lib/wait.mjs";
import { WAIT_MS } from "../lib/workbench.mjs";

/** FILES are the workspace files these flows need. */
export const FILES = {
  "lines.txt": "line one\nline two\nline three\nline four\n",
  "mention.txt": "mentioned-secret-77\n",
};

/** register adds the flows, in order, as tests of ctx's workbench (see 2-chat.test.mjs). */
export function register(ctx) {
  test("a tool call's location opens the file at its line; the chat survives hide and show", () =>
    ctx.flow("locate", async ({ env, wb, chat }) => {
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
    ctx.flow("selection", async ({ env, wb, chat }) => {
      await chat.newSession();
      // The file is open from the flow before; else "Go to File" opens it.
      const tab = wb.page.locator(".tabs-container .tab", { hasText: "lines.txt" }).first();
      if (await tab.isVisible()) await tab.click();
      else await wb.openFile("lines.txt");
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
    ctx.flow("mention", async ({ env, wb, chat }) => {
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
    ctx.flow("mode", async ({ env, wb, chat }) => {
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
    ctx.flow("cancel", async ({ env, wb, chat }) => {
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
    ctx.flow("loop", async ({ env, wb, chat }) => {
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
    ctx.flow("image", async ({ env, wb, chat }) => {
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
}
