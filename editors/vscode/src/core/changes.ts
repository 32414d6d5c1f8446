// The extension's side of "changed this turn" (the webview's list of the
// files the last turn edited): only files an edit of the session changed
// are shown or reverted, and a revert goes through the editor (undoable).

import type * as acp from "@agentclientprotocol/sdk";
import type { Editor } from "./editor";

/** changedIn: one of the session's updates carries a diff of path. */
export function changedIn(updates: readonly acp.SessionUpdate[], path: string): boolean {
  return updates.some(
    (u) => (u.sessionUpdate === "tool_call_update" || u.sessionUpdate === "tool_call") && (u.content ?? []).some((c) => c.type === "diff" && c.path === path),
  );
}

/**
 * revertFiles writes each file's text from before the turn back (removes
 * it when the turn created it) and returns one line per file that failed.
 */
export async function revertFiles(editor: Editor, files: { path: string; oldText: string | null }[]): Promise<string[]> {
  const failed: string[] = [];
  for (const f of files) {
    try {
      if (f.oldText === null) await editor.deleteFile(f.path);
      else await editor.writeFile(f.path, f.oldText);
    } catch (err) {
      failed.push(`${f.path}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return failed;
}
