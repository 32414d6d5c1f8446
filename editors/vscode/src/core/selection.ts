// "Add Selection to Chat": what the prompt box gets for the editor's
// selection. A selection goes in as a quoted code block naming the file and
// lines; no selection mentions the whole file (sent as a resource block).

import type { FileMention } from "../webviewProtocol";

/** EditorSelection is what the command reads off the active editor. */
export interface EditorSelection {
  /** The document's URI (file:// for files on disk). */
  uri: string;
  /** The workspace-relative path, or the file name. */
  label: string;
  /** VS Code's language id, used as the code fence's info string. */
  languageId: string;
  /** 1-based first and last line of the selection. */
  startLine: number;
  endLine: number;
  /** The selected text; "" when nothing is selected. */
  text: string;
}

/** selectionInsert is the insertText message's text and mentions for a selection. */
export function selectionInsert(sel: EditorSelection): { text: string; mentions: FileMention[] } {
  if (!sel.text.trim()) return { text: "", mentions: [{ uri: sel.uri, label: sel.label }] };
  const lines = sel.startLine === sel.endLine ? `line ${sel.startLine}` : `lines ${sel.startLine}-${sel.endLine}`;
  const body = sel.text.endsWith("\n") ? sel.text : `${sel.text}\n`;
  const fence = fenceFor(body);
  const lang = /^[\w+#.-]+$/.test(sel.languageId) && sel.languageId !== "plaintext" ? sel.languageId : "";
  return { text: `\`${sel.label}\` ${lines}:\n${fence}${lang}\n${body}${fence}\n`, mentions: [] };
}

/** fenceFor picks a backtick fence longer than any run of backticks in the text. */
function fenceFor(text: string): string {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return "`".repeat(Math.max(3, longest + 1));
}
