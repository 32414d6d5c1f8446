// "Changed this turn" against the real agent: the webview's Diff and Revert
// reach the editor for files an edit of the session changed (a file the
// turn created is removed), and nothing else is touched.

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { start, turnEnded } from "./helpers";

const TURNS = [
  {
    match: "two-files",
    chunks: [
      { functionCall: { name: "write_file", args: { file_path: "a.txt", content: "a changed\n" } } },
      { functionCall: { name: "write_file", args: { file_path: "b.txt", content: "b new\n" } } },
    ],
  },
  { match: "Created b.txt", chunks: [{ text: "Done." }] },
];

test("Revert puts a changed file back and removes a created one; Diff shows the text before the turn; other files are refused", async (t) => {
  const h = await start(t, TURNS, { files: { "a.txt": "a before\n", "other.txt": "untouched\n" }, approvalMode: "auto_edit" });
  const a = path.join(h.workspace, "a.txt");
  const b = path.join(h.workspace, "b.txt");
  const other = path.join(h.workspace, "other.txt");
  const from = h.editor.posted.length;
  await h.controller.handle({ type: "prompt", text: "two-files: change them", mentions: [] });
  const end = await turnEnded(h.editor, from);
  assert.equal(end.error, undefined, end.error);
  assert.equal(await readFile(a, "utf8"), "a changed\n");
  assert.equal(await readFile(b, "utf8"), "b new\n");

  await h.controller.handle({ type: "showChange", path: a, oldText: "a before\n" });
  await h.controller.handle({ type: "showChange", path: other, oldText: "x" });
  assert.deepEqual(h.editor.changesShown, [{ path: a, oldText: "a before\n" }], "only a file the session changed is shown");

  await h.controller.handle({ type: "revertChanges", files: [{ path: a, oldText: "a before\n" }, { path: b, oldText: null }, { path: other, oldText: "replaced\n" }] });
  assert.equal(await readFile(a, "utf8"), "a before\n");
  assert.equal(existsSync(b), false, "the file the turn created is removed");
  assert.equal(await readFile(other, "utf8"), "untouched\n", "a file no edit of the session changed is not written");
});
