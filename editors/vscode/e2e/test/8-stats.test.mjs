// Session figures, as a user sees them: a scripted turn reads a file; the
// status bar item's tooltip then shows the session's requests, tokens and
// the one tool call, and "Companion: Show Session Stats" (command palette)
// opens a text editor with the same, from the agent's
// `_companion/session/stats`. Runs only when $COMPANION_BIN
// advertises `agentCapabilities._meta.companion.stats` (skipped otherwise).

import assert from "node:assert/strict";
import path from "node:path";
import { after, before, test } from "node:test";
import { withArtifacts } from "../lib/artifacts.mjs";
import { Chat } from "../lib/chat.mjs";
import { FIXTURES_DIR, agentAdvertises } from "../lib/env.mjs";
import { waitFor } from "../lib/wait.mjs";
import { closeChatWorkbench, openChatWorkbench, WAIT_MS } from "../lib/workbench.mjs";

let env, browser, wb, chat;


const supported = await agentAdvertises("stats");

before(async () => {
  if (!supported) return;
  ({ env, browser, wb } = await openChatWorkbench({
    script: path.join(FIXTURES_DIR, "stats.json"),
    files: { "stats-notes.txt": "hello\n" },
  }));
  chat = new Chat(wb);
  await flow("open", () => chat.open());
});

after(() => closeChatWorkbench({ env, browser, wb }));

function flow(name, fn) {
  return withArtifacts(name, { page: wb?.page, chat, server: env?.server }, fn);
}

/** editorText is the text the active text editor shows (its rendered lines). */
async function editorText() {
  return wb.page.locator(".editor-instance .monaco-editor .view-lines").first().innerText();
}

test("Show Session Stats shows the turn's requests, tokens and tool call", { skip: !supported && "the companion binary does not advertise stats" }, () =>
  flow("stats", async () => {
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
