// Reads what the user sees in VS Code as an IdeContext (LSP shapes, 0-based):
// visible editors with the active one marked, cursor, selection and its text,
// diagnostics, workspace folders and trust. Caps are applied by the sender.

import * as vscode from "vscode";
import type { Diagnostic, IdeContext, OpenFile, Range } from "../core/ideContext";
import { capUtf8, MAX_DIAGNOSTICS, MAX_SELECTED_TEXT_BYTES } from "../core/ideContext";

/** IdeContextSource remembers when each file was last focused, for the newest-first cap. */
export class IdeContextSource {
  private readonly focusedAt = new Map<string, number>();

  /** touch records that the active editor changed. */
  touch(): void {
    const uri = vscode.window.activeTextEditor?.document.uri;
    if (uri) this.focusedAt.set(uri.toString(), Date.now());
  }

  /** read builds the current context. */
  read(): IdeContext {
    return {
      workspaceFolders: (vscode.workspace.workspaceFolders ?? []).map((f) => ({ uri: f.uri.toString(), name: f.name })),
      openFiles: this.openFiles(),
      diagnostics: diagnostics(),
      isTrusted: vscode.workspace.isTrusted,
    };
  }

  private openFiles(): OpenFile[] {
    const active = vscode.window.activeTextEditor;
    const editors = [...vscode.window.visibleTextEditors];
    if (active && !editors.includes(active)) editors.push(active);
    const seen = new Set<string>();
    const files: OpenFile[] = [];
    for (const e of editors) {
      const uri = e.document.uri;
      if (uri.scheme !== "file" || seen.has(uri.toString())) continue;
      seen.add(uri.toString());
      files.push(openFile(e, e === active, this.focusedAt.get(uri.toString()) ?? 0));
    }
    return files;
  }
}

function openFile(e: vscode.TextEditor, isActive: boolean, timestamp: number): OpenFile {
  const f: OpenFile = { uri: e.document.uri.toString(), isActive, timestamp, cursor: position(e.selection.active) };
  if (!e.selection.isEmpty) {
    f.selection = range(e.selection);
    f.selectedText = capUtf8(e.document.getText(e.selection), MAX_SELECTED_TEXT_BYTES);
  }
  return f;
}

function diagnostics(): { uri: string; diagnostics: Diagnostic[] }[] {
  const out: { uri: string; diagnostics: Diagnostic[] }[] = [];
  let total = 0;
  for (const [uri, list] of vscode.languages.getDiagnostics()) {
    if (uri.scheme !== "file" || list.length === 0) continue;
    const kept = list.slice(0, MAX_DIAGNOSTICS - total).map(diagnostic);
    out.push({ uri: uri.toString(), diagnostics: kept });
    total += kept.length;
    if (total >= MAX_DIAGNOSTICS) break;
  }
  return out;
}

function diagnostic(d: vscode.Diagnostic): Diagnostic {
  const code = typeof d.code === "object" ? d.code.value : d.code;
  // vscode.DiagnosticSeverity is 0-based (Error = 0); LSP's is 1-based (Error = 1).
  return { range: range(d.range), severity: d.severity + 1, message: d.message, source: d.source, code };
}

function position(p: vscode.Position) {
  return { line: p.line, character: p.character };
}

function range(r: vscode.Range): Range {
  return { start: position(r.start), end: position(r.end) };
}
