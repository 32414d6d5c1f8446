// The chat's first flows: a streamed answer, an edit reviewed in the diff
// editor (accepted with the user's change, rejected), the keyboard left where
// the user types while an edit arrives, and an approved shell command.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { waitFor } from "../lib/wait.mjs";
import { WAIT_MS } from "../lib/workbench.mjs";

/** ORIGINAL and KEEP are notes.txt and keep.txt as the workspace starts (FILES). */
const ORIGINAL = "original line\n";
const KEEP = "keep me\n";

/** FILES are the workspace files these flows need. */
export const FILES = { "notes.txt": ORIGINAL, "keep.txt": KEEP, "draft.txt": "draft start\n", "hunks.txt": "h1\nkeep a\nkeep b\nkeep c\nkeep d\nkeep e\nh2\n" };

/** register adds the flows, in order, as tests of ctx's workbench (see 2-chat.test.mjs). */
export function register(ctx) {
  test("a prompt gets a streamed answer in the chat", () =>
    ctx.flow("stream", async ({ env, wb, chat }) => {
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
    ctx.flow("edit", async ({ env, wb, chat }) => {
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
    ctx.flow("reject", async ({ env, wb, chat }) => {
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

  test("a hunk reverted in the diff editor is left out: Allow writes exactly what the user kept", () =>
    ctx.flow("hunks", async ({ env, wb, chat }) => {
      await chat.newSession();
      await chat.send("e2e-hunks: rewrite hunks.txt");
      const diff = wb.page.locator(".monaco-diff-editor");
      const modified = diff.locator(".editor.modified .lines-content > .view-lines");
      await modified.filter({ hasText: "H2 changed" }).waitFor({ timeout: WAIT_MS });
      // VS Code's own hunk action (Diff Editor: Revert, also in the hunk's gutter menu): with the
      // cursor in the first changed block, it puts the file's text back in the proposal there.
      await modified.locator(".view-line", { hasText: "H1 changed" }).click();
      await wb.runCommand("Diff Editor: Revert");
      await modified.filter({ hasNotText: "H1 changed" }).filter({ hasText: "h1" }).waitFor({ timeout: WAIT_MS });
      await wb.page.locator('.editor-actions .action-label[aria-label^="Allow this time"]').click();
      const file = path.join(env.workspace, "hunks.txt");
      const want = "h1\nkeep a\nkeep b\nkeep c\nkeep d\nkeep e\nH2 changed\n";
      await waitFor(async () => ((await readFile(file, "utf8")) === want ? true : undefined), {
        what: async () => `hunks.txt to hold only the kept hunk (now ${JSON.stringify(await readFile(file, "utf8"))})`,
      });
      await chat.waitIdle();
      await diff.waitFor({ state: "detached", timeout: WAIT_MS });
    }));

  test("an edit arriving while the user types the next prompt leaves the keyboard in the chat box; Review goes to it", () =>
    ctx.flow("typing", async ({ env, wb, chat }) => {
      await chat.newSession();
      await chat.send("e2e-typing: rewrite typing.txt");
      // The user keeps typing the next prompt, a key at a time, while the edit arrives.
      const box = chat.frame.locator("textarea#prompt");
      await box.click();
      const diff = wb.page.locator(".monaco-diff-editor");
      const modified = diff.locator(".editor.modified .lines-content > .view-lines");
      const next = "then update the readme".repeat(40);
      let typed = "";
      for (const ch of next) {
        await wb.page.keyboard.type(ch);
        typed += ch;
        if (await modified.filter({ hasText: "agent typing line" }).isVisible()) break;
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

  test("an edit arriving while the user types in a file editor leaves the keyboard in that file", () =>
    ctx.flow("typing-file", async ({ env, wb, chat }) => {
      await chat.newSession();
      await wb.openFile("draft.txt");
      await chat.send("e2e-filetyping: rewrite typing-file.txt");
      // The user goes back to the file and types in it, a key at a time, while the edit arrives.
      await wb.page.locator(".editor-group-container .view-line", { hasText: "draft start" }).first().click();
      await wb.page.keyboard.press("Control+End");
      const modified = wb.page.locator(".monaco-diff-editor .editor.modified .lines-content > .view-lines");
      const arrived = () => modified.filter({ hasText: "agent file line" }).isVisible();
      let typed = "";
      for (const ch of "notes for later ".repeat(40)) {
        await wb.page.keyboard.type(ch);
        typed += ch;
        if (await arrived()) break;
      }
      await modified.filter({ hasText: "agent file line" }).waitFor({ timeout: WAIT_MS });
      await wb.page.keyboard.type(" and docs", { delay: 40 });
      typed += " and docs";
      // Saving from the keyboard writes what the user typed: the keys, and the focus, stayed in draft.txt.
      await wb.page.keyboard.press("Control+S");
      const file = path.join(env.workspace, "draft.txt");
      await waitFor(async () => ((await readFile(file, "utf8")) === `draft start\n${typed}` ? true : undefined), {
        what: async () => `draft.txt to hold every typed key (now ${JSON.stringify(await readFile(file, "utf8"))})`,
      });
      assert.equal((await modified.innerText()).replace(/\u00a0/g, " ").trim(), "agent file line", "no key landed in the proposal");
      await chat.answerPermission("allow_once");
      const written = path.join(env.workspace, "typing-file.txt");
      await waitFor(async () => ((await readFile(written, "utf8").catch(() => "")) === "agent file line\n" ? true : undefined), {
        what: async () => "typing-file.txt to be written",
      });
      await chat.waitIdle();
    }));

  test("an approved shell command runs in a VS Code terminal", () =>
    ctx.flow("shell", async ({ env, wb, chat }) => {
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
}
