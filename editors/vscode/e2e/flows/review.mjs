// Reviewing a turn that changed several files as one change: after the turn
// the "Changed this turn" list names each file; Diff opens VS Code's diff of
// the file before the turn against the file now, Revert puts a file back (a
// file the turn created is removed), Keep keeps it, and the list closes once
// every file is decided. Checked on disk.

import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { waitFor } from "../lib/wait.mjs";
import { WAIT_MS } from "../lib/workbench.mjs";

/** FILES are the workspace files these flows need. */
export const FILES = { "multi-a.txt": "a one\na two\n" };

/** register adds the flow as a test of ctx's workbench (see 2-chat.test.mjs). */
export function register(ctx) {
  test("a turn that changed two files is reviewed as one change: diff, revert and keep per file", () =>
    ctx.flow("changes", async ({ env, wb, chat }) => {
      await chat.newSession();
      await chat.setMode("auto_edit");
      await chat.send("e2e-multi: change two files");
      await chat.agentMessage("Both files are changed.").waitFor({ timeout: WAIT_MS });
      await chat.waitIdle();
      const a = path.join(env.workspace, "multi-a.txt");
      const b = path.join(env.workspace, "multi-b.txt");
      assert.equal(await readFile(a, "utf8"), "a one\na TWO\n");
      assert.equal(await readFile(b, "utf8"), "b new\n");
      const list = chat.frame.locator("#changes");
      await list.locator(".changes-title", { hasText: "Changed this turn (2 files)" }).waitFor({ timeout: WAIT_MS });

      await list.locator(`.change[data-path="${a}"] a.change-diff`).click();
      await wb.page.locator(".tabs-container .tab.active", { hasText: "multi-a.txt (changed this turn)" }).waitFor({ timeout: WAIT_MS });
      const diff = wb.page.locator(".monaco-diff-editor");
      await diff.locator(".editor.original .lines-content > .view-lines", { hasText: "a two" }).waitFor({ timeout: WAIT_MS });
      await diff.locator(".editor.modified .lines-content > .view-lines", { hasText: "a TWO" }).waitFor({ timeout: WAIT_MS });

      await list.locator(`.change[data-path="${b}"] button.change-revert`).click();
      await waitFor(() => !existsSync(b), { what: () => "multi-b.txt (created by the turn) to be removed" });
      await list.locator(`.change[data-path="${b}"][data-decided="reverted"]`).waitFor({ timeout: WAIT_MS });
      await list.locator(`.change[data-path="${a}"] button.change-keep`).click();
      await list.waitFor({ state: "hidden", timeout: WAIT_MS });
      assert.equal(await readFile(a, "utf8"), "a one\na TWO\n", "a kept file stays as the turn left it");
    }));
}
