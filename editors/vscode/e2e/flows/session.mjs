// Flows on a session as a whole: the session's figures (status bar tooltip
// and "Companion: Show Session Stats", from `_companion/session/stats`) and
// rewinding to an earlier prompt. Each runs only when $COMPANION_BIN
// advertises the capability (`agentCapabilities._meta.companion.stats` /
// `.rewind`); without rewind the action must not show at all.

import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { agentAdvertises } from "../lib/env.mjs";
import { waitFor } from "../lib/wait.mjs";
import { WAIT_MS } from "../lib/workbench.mjs";

/** FILES are the workspace files these flows need. */
export const FILES = { "stats-notes.txt": "stats-content-5150\n", "rewind.txt": "original\n" };

const stats = await agentAdvertises("stats");
const rewind = await agentAdvertises("rewind");

/** register adds the flows, in order, as tests of ctx's workbench (see 2-chat.test.mjs). */
export function register(ctx) {
  test("Show Session Stats shows the turn's requests, tokens and tool call", { skip: !stats && "the companion binary does not advertise stats" }, () =>
    ctx.flow("stats", async ({ wb, chat }) => {
      await chat.newSession();
      await chat.send("e2e-st-read: what do the notes say?");
      await chat.agentMessage("The notes say hello.").waitFor({ timeout: WAIT_MS });
      await chat.waitIdle();
      // The status bar item's tooltip gets the figures once the turn ended.
      const item = wb.page.locator(".statusbar-item", { hasText: "Companion: ready" }).first();
      const hover = wb.page.locator(".workbench-hover, .monaco-hover", { hasText: "This session:" }).first();
      await waitFor(
        async () => {
          await item.hover();
          try {
            await hover.waitFor({ timeout: 2_000 });
            return true;
          } catch {
            await wb.page.mouse.move(1, 1); // hover again: the figures come a moment after the turn
            return undefined;
          }
        },
        { what: async () => "the status bar tooltip with the session's figures" },
      );
      const tip = (await hover.innerText()).replace(/\u00a0/g, " ");
      assert.match(tip, /Model requests: 2 \(0 errors\)/);
      assert.match(tip, /Tokens: 100 prompt, 9 output/);
      assert.match(tip, /Tool read_file: 1 call, 1 succeeded/);
      await wb.page.mouse.move(1, 1);
      await wb.runCommand("Companion: Show Session Stats");
      const editorText = () => wb.page.locator(".editor-instance .monaco-editor .view-lines").first().innerText();
      const text = await waitFor(
        async () => {
          const t = (await editorText().catch(() => "")).replace(/\u00a0/g, " ");
          return t.includes("Model requests: 2") && t.includes("read_file") ? t : undefined;
        },
        { what: async () => `the stats editor (shows ${JSON.stringify(await editorText().catch(() => ""))})` },
      );
      assert.match(text, /Model requests: 2 \(0 errors\)/);
      assert.match(text, /Tokens: 100 prompt, 9 output/);
      assert.match(text, /Tool calls: 1 \(1 succeeded, 0 failed/);
      assert.match(text, /Tool read_file: 1 call, 1 succeeded/);
    }));

  test("rewind to the second prompt restores the file and gives the prompt back", { skip: !rewind && "the companion binary does not advertise rewind" }, () =>
    ctx.flow("rewind", async ({ env, chat }) => {
      const file = path.join(env.workspace, "rewind.txt");
      const fileHolds = (text) =>
        waitFor(async () => ((await readFile(file, "utf8")) === text ? true : undefined), {
          what: async () => `rewind.txt to hold ${JSON.stringify(text)} (now ${JSON.stringify(await readFile(file, "utf8"))})`,
        });
      const prompt = async (text, answer) => {
        await chat.send(text);
        await chat.agentMessage(answer).waitFor({ timeout: WAIT_MS });
        await chat.waitIdle();
      };
      await chat.newSession();
      await chat.setMode("auto_edit");
      await prompt("e2e-rw-one: write the first version", "Writing the first version.");
      await fileHolds("first version\n");
      await prompt("e2e-rw-two: write the second version", "Writing the second version.");
      await fileHolds("second version\n");
      const original = await chat.root().getAttribute("data-session-id");

      const second = chat.frame.locator("#messages .msg-user", { hasText: "e2e-rw-two" });
      await chat.frame.locator('#messages[data-rewind="on"]').waitFor({ timeout: WAIT_MS });
      await second.hover();
      await second.locator("button.rewind-action").click();
      const box = second.locator(".rewind-box");
      await box.waitFor({ timeout: WAIT_MS });
      assert.match(await box.innerText(), /restored to how they were/);
      assert.equal(await fileHolds("second version\n"), true, "nothing changes before the confirmation");
      await box.locator("button.rewind-confirm").click();

      await fileHolds("first version\n");
      await chat.frame.locator(`#root[data-session-id]:not([data-session-id="${original}"])`).waitFor({ timeout: WAIT_MS });
      await chat.frame.locator("#messages", { hasText: "Rewound. Restored 1 file" }).waitFor({ timeout: WAIT_MS });
      await chat.frame.locator('#messages[aria-busy="false"]').waitFor({ timeout: WAIT_MS });
      assert.equal(await chat.frame.locator("#messages .msg-user").count(), 1, await chat.transcriptText());
      await chat.frame.locator("#messages .msg-user", { hasText: "e2e-rw-one" }).waitFor({ timeout: WAIT_MS });
      assert.equal(await chat.frame.locator("textarea#prompt").inputValue(), "e2e-rw-two: write the second version");

      // The original conversation stays in the history, as the fork's parent.
      await chat.frame.locator("button#history-toggle").click();
      await chat.frame.locator(`#history-list button.history-entry[data-session-id="${original}"]`).waitFor({ timeout: WAIT_MS });
      await chat.frame.locator("button#history-toggle").click();
      await chat.frame.locator("textarea#prompt").fill("");
    }));

  test("without the agent's capability no rewind action shows", { skip: rewind && "the companion binary advertises rewind" }, () =>
    ctx.flow("no-rewind", async ({ chat }) => {
      await chat.newSession();
      await chat.setMode("auto_edit");
      await chat.send("e2e-rw-one: write the first version");
      await chat.agentMessage("Writing the first version.").waitFor({ timeout: WAIT_MS });
      await chat.waitIdle();
      const user = chat.frame.locator("#messages .msg-user", { hasText: "e2e-rw-one" });
      await user.hover();
      assert.equal(await chat.frame.locator("#messages").getAttribute("data-rewind"), "off");
      assert.equal(await user.locator("button.rewind-action").isVisible(), false);
    }));
}
