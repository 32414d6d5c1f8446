// The Editor interface (src/core/editor.ts) on the VS Code API.

import * as vscode from "vscode";
import type { DiffReview, EditProposal, Editor, StatusInfo, TerminalView } from "../core/editor";
import type { IdeContext } from "../core/ideContext";
import { rankFiles } from "../core/prompt";
import type { FileMention, ToWebview } from "../webviewProtocol";
import type { DiffReviews } from "./diffReviews";
import type { IdeContextSource } from "./ideContextSource";
import type { StatusBar } from "./statusBar";
import { createTerminalView } from "./terminalView";
import { LanguageFeatures } from "./languageFeatures";
import type { LanguageAnswer, LanguageRequest } from "../core/language";

/** How long a workspace file listing is reused for `@` completion. */
const FILE_LIST_TTL_MS = 5000;
const FILE_LIST_MAX = 10_000;

/** What VscodeEditor is built from. */
export interface VscodeEditorParts {
  output: vscode.OutputChannel;
  diffs: DiffReviews;
  statusBar: StatusBar;
  context: IdeContextSource;
  post: (m: ToWebview) => void;
}

/** VscodeEditor implements Editor with VS Code documents, edits, diff editors and terminals. */
export class VscodeEditor implements Editor {
  private fileList: { at: number; uris: vscode.Uri[] } | undefined;
  private readonly features = new LanguageFeatures();

  constructor(private readonly parts: VscodeEditorParts) {}

  /** language answers companion's language questions with VS Code's language features. */
  language(req: LanguageRequest): Promise<LanguageAnswer> {
    return this.features.answer(req);
  }

  /** pick shows a quick pick that stays open when focus moves (a form must not vanish). */
  async pick(prompt: string, labels: string[], many: boolean, signal: AbortSignal): Promise<number[] | undefined> {
    const items = labels.map((label, index) => ({ label, index }));
    const token = cancellation(signal);
    const opts = { title: "Companion", placeHolder: prompt, ignoreFocusOut: true };
    if (many) {
      const picked = await vscode.window.showQuickPick(items, { ...opts, canPickMany: true }, token.token);
      token.dispose();
      return picked?.map((i) => i.index);
    }
    const picked = await vscode.window.showQuickPick(items, opts, token.token);
    token.dispose();
    return picked ? [picked.index] : undefined;
  }

  /** input shows an input box validated as the user types. */
  async input(prompt: string, value: string, validate: (text: string) => string | undefined, signal: AbortSignal): Promise<string | undefined> {
    const token = cancellation(signal);
    const text = await vscode.window.showInputBox(
      { title: "Companion", prompt, value, ignoreFocusOut: true, validateInput: (t) => validate(t) ?? null },
      token.token,
    );
    token.dispose();
    return text;
  }

  openDocumentText(path: string): string | undefined {
    return vscode.workspace.textDocuments.find((d) => d.uri.scheme === "file" && d.uri.fsPath === path)?.getText();
  }

  /** writeFile applies one WorkspaceEdit (so Ctrl+Z undoes it), creating the file when missing, then saves. */
  async writeFile(path: string, content: string): Promise<void> {
    const uri = vscode.Uri.file(path);
    const edit = new vscode.WorkspaceEdit();
    if (await exists(uri)) {
      const doc = await vscode.workspace.openTextDocument(uri);
      edit.replace(uri, new vscode.Range(0, 0, doc.lineCount, 0), content);
    } else {
      edit.createFile(uri, { ignoreIfExists: true });
      edit.insert(uri, new vscode.Position(0, 0), content);
    }
    if (!(await vscode.workspace.applyEdit(edit))) throw new Error("VS Code refused the edit");
    const doc = await vscode.workspace.openTextDocument(uri);
    if (doc.isDirty && !(await doc.save())) throw new Error("VS Code could not save the file");
  }

  /** deleteFile removes a file with one WorkspaceEdit (so Ctrl+Z undoes it). */
  async deleteFile(path: string): Promise<void> {
    const edit = new vscode.WorkspaceEdit();
    edit.deleteFile(vscode.Uri.file(path), { ignoreIfNotExists: true });
    if (!(await vscode.workspace.applyEdit(edit))) throw new Error("VS Code refused to remove the file");
  }

  showChange(path: string, oldText: string): Promise<void> {
    return this.parts.diffs.showChange(path, oldText);
  }

  openDiff(proposal: EditProposal): Promise<DiffReview> {
    return this.parts.diffs.openDiff(proposal);
  }

  createTerminalView(name: string, onClose: () => void): TerminalView {
    return createTerminalView(name, onClose);
  }

  post(message: ToWebview): void {
    this.parts.post(message);
  }

  showStatus(status: StatusInfo): void {
    this.parts.statusBar.show(status);
  }

  async openLocation(path: string, line?: number | null): Promise<void> {
    const pos = new vscode.Position(Math.max((line ?? 1) - 1, 0), 0);
    await vscode.window.showTextDocument(vscode.Uri.file(path), { selection: new vscode.Range(pos, pos), preview: true });
  }

  async findFiles(query: string): Promise<FileMention[]> {
    const uris = await this.workspaceFiles();
    const byRel = new Map(uris.map((u) => [vscode.workspace.asRelativePath(u, true), u]));
    return rankFiles(query, [...byRel.keys()]).map((rel) => ({ uri: byRel.get(rel)!.toString(), label: rel }));
  }

  ideContext(): IdeContext {
    return this.parts.context.read();
  }

  log(line: string): void {
    this.parts.output.appendLine(line);
  }

  private async workspaceFiles(): Promise<vscode.Uri[]> {
    const now = Date.now();
    if (!this.fileList || now - this.fileList.at > FILE_LIST_TTL_MS) {
      const uris = await vscode.workspace.findFiles("**/*", "**/{node_modules,.git}/**", FILE_LIST_MAX);
      this.fileList = { at: now, uris };
    }
    return this.fileList.uris;
  }
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}

/** cancellation turns an AbortSignal (the agent cancelled its request) into a token that closes the prompt. */
function cancellation(signal: AbortSignal): vscode.CancellationTokenSource {
  const source = new vscode.CancellationTokenSource();
  if (signal.aborted) source.cancel();
  else signal.addEventListener("abort", () => source.cancel(), { once: true });
  return source;
}
