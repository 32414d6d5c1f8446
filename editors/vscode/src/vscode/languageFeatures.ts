// companion's language questions (_companion/lsp, src/core/language.ts)
// answered with VS Code's language features: the vscode.execute*Provider
// commands and languages.getDiagnostics, converted to LSP's shapes.
//
// VS Code cannot say whether a language has providers, so a file counts as
// having language features when its language is not plain text and an
// extension other than companion's activates on it (`onLanguage:<id>`, as
// language servers' extensions do), or its document symbol provider lists
// something; a language found so is remembered. A file without:
// `available: false`, and companion asks its own server.

import * as vscode from "vscode";
import {
  lspDiagnostics,
  lspHover,
  lspLocations,
  lspSymbol,
  lspWorkspaceEdit,
  type LanguageAnswer,
  type LanguageRequest,
  type SymbolLike,
} from "../core/language";

/** DIAGNOSTICS_SETTLE_MS bounds the wait for a file's diagnostics to change after companion's edit. */
const DIAGNOSTICS_SETTLE_MS = 1000;

/** LanguageFeatures answers companion's language questions in VS Code. */
export class LanguageFeatures {
  /** Languages whose files were seen with language features. */
  private readonly known = new Set<string>();

  /** answer implements Editor.language. */
  async answer(req: LanguageRequest): Promise<LanguageAnswer> {
    const uri = vscode.Uri.file(req.path);
    const doc = await vscode.workspace.openTextDocument(uri);
    if (!(await this.hasFeatures(doc))) return { available: false };
    return { available: true, result: await this.run(req, uri) };
  }

  private async hasFeatures(doc: vscode.TextDocument): Promise<boolean> {
    if (doc.languageId === "plaintext") return false;
    if (this.known.has(doc.languageId) || activatesOn(doc.languageId)) return true;
    const symbols = await vscode.commands.executeCommand<unknown[] | undefined>("vscode.executeDocumentSymbolProvider", doc.uri);
    if (!symbols?.length) return false;
    this.known.add(doc.languageId);
    return true;
  }

  private async run(req: LanguageRequest, uri: vscode.Uri): Promise<unknown> {
    const at = req.position ? new vscode.Position(req.position.line, req.position.character) : undefined;
    const exec = <T>(command: string, ...args: unknown[]) => vscode.commands.executeCommand<T>(command, ...args);
    switch (req.method) {
      case "textDocument/definition":
        return lspLocations(await exec<(vscode.Location | vscode.LocationLink)[]>("vscode.executeDefinitionProvider", uri, at));
      case "textDocument/references":
        return lspLocations(await exec<vscode.Location[]>("vscode.executeReferenceProvider", uri, at));
      case "textDocument/hover":
        return lspHover(await exec<vscode.Hover[]>("vscode.executeHoverProvider", uri, at));
      case "textDocument/documentSymbol":
        return ((await exec<SymbolLike[]>("vscode.executeDocumentSymbolProvider", uri)) ?? []).map(lspSymbol);
      case "workspace/symbol":
        return ((await exec<vscode.SymbolInformation[]>("vscode.executeWorkspaceSymbolProvider", req.query ?? "")) ?? []).map(lspSymbol);
      case "textDocument/rename": {
        const edit = await exec<vscode.WorkspaceEdit | undefined>("vscode.executeDocumentRenameProvider", uri, at, req.newName);
        return edit ? lspWorkspaceEdit(edit.entries()) : null;
      }
      case "textDocument/diagnostic":
        await diagnosticsChange(uri, DIAGNOSTICS_SETTLE_MS);
        return lspDiagnostics(vscode.languages.getDiagnostics(uri));
    }
  }
}

/** OWN_ID is companion's own extension, which provides no language features. */
const OWN_ID = "companion.companion";

/** activatesOn reports whether another extension activates on files of languageId (a language extension). */
function activatesOn(languageId: string): boolean {
  const event = `onLanguage:${languageId}`;
  return vscode.extensions.all.some((e) => {
    const events = (e.packageJSON as { activationEvents?: unknown } | undefined)?.activationEvents;
    return e.id !== OWN_ID && Array.isArray(events) && events.includes(event);
  });
}

/** diagnosticsChange settles when uri's diagnostics change, or after ms. */
function diagnosticsChange(uri: vscode.Uri, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const key = uri.toString();
    const done = () => {
      clearTimeout(timer);
      sub.dispose();
      resolve();
    };
    const timer = setTimeout(done, ms);
    const sub = vscode.languages.onDidChangeDiagnostics((e) => {
      if (e.uris.some((u) => u.toString() === key)) done();
    });
  });
}
