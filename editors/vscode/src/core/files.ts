// The client side of ACP fs/*: reads see the editor's unsaved text, writes
// go through the editor (an undoable edit, then saved).

import { readFile } from "node:fs/promises";
import * as acp from "@agentclientprotocol/sdk";
import type { Editor } from "./editor";

/** sliceLines applies fs/read_text_file's 1-based `line` and `limit` (a line count). */
export function sliceLines(text: string, line?: number | null, limit?: number | null): string {
  if (!line && !limit) return text;
  const lines = text.split(/(?<=\n)/); // keep each line's own ending
  const start = Math.max((line ?? 1) - 1, 0);
  const end = limit ? start + limit : lines.length;
  return lines.slice(start, end).join("");
}

/** readTextFile answers fs/read_text_file: an open document's text, else the disk's. */
export async function readTextFile(editor: Editor, req: acp.ReadTextFileRequest): Promise<acp.ReadTextFileResponse> {
  let text = editor.openDocumentText(req.path);
  if (text === undefined) {
    try {
      text = await readFile(req.path, "utf8");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") throw acp.RequestError.resourceNotFound(req.path);
      throw acp.RequestError.internalError(undefined, `cannot read ${req.path}: ${(err as Error).message}`);
    }
  }
  return { content: sliceLines(text, req.line, req.limit) };
}

/** writeTextFile answers fs/write_text_file through the editor (undoable, saved, created when missing). */
export async function writeTextFile(editor: Editor, req: acp.WriteTextFileRequest): Promise<acp.WriteTextFileResponse> {
  try {
    await editor.writeFile(req.path, req.content);
  } catch (err) {
    throw acp.RequestError.internalError(undefined, `cannot write ${req.path}: ${(err as Error).message}`);
  }
  return {};
}
