// Extension entry point: wires the VS Code pieces to the ChatController
// (src/core), registers the commands, settings reaction and context watchers,
// and stops the agent on deactivate.

import { accessSync, chmodSync, constants, existsSync } from "node:fs";
import { homedir } from "node:os";
import * as vscode from "vscode";
import { ChatController, errorText } from "../core/controller";
import type { LaunchSpec } from "../core/connection";
import { composeLaunch } from "../core/launch";
import { selectionInsert } from "../core/selection";
import { ChatViewProvider, CHAT_VIEW_ID } from "./chatView";
import { DiffReviews } from "./diffReviews";
import { IdeContextSource } from "./ideContextSource";
import { StatusBar } from "./statusBar";
import { VscodeEditor } from "./vscodeEditor";

/** The SecretStorage key of the API key. */
const SECRET_KEY = "companion.apiKey";
/** Settings whose change restarts the agent. */
const RESTART_SETTINGS = ["companion.path", "companion.args", "companion.env", "companion.model"];

/** The API returned by activate (the extension-host tests use it). */
export interface CompanionApi {
  controller: ChatController;
  diffs: DiffReviews;
  editor: VscodeEditor;
}

let controller: ChatController | undefined;

export function activate(ctx: vscode.ExtensionContext): CompanionApi {
  const output = vscode.window.createOutputChannel("Companion");
  const diffs = new DiffReviews();
  const statusBar = new StatusBar();
  const context = new IdeContextSource();
  const view = new ChatViewProvider(ctx.extensionUri, (m) => void ctl.handle(m));
  const editor = new VscodeEditor({ output, diffs, statusBar, context, post: (m) => view.post(m) });
  const ctl = new ChatController(editor, {
    launch: () => launchSpec(ctx),
    cwd: workspaceRoot,
    additionalDirectories: () => (vscode.workspace.workspaceFolders ?? []).slice(1).map((f) => f.uri.fsPath),
    approvalMode: () => vscode.workspace.getConfiguration("companion").get<string>("approvalMode", "default"),
    trusted: () => vscode.workspace.isTrusted,
  });
  controller = ctl;
  ctx.subscriptions.push(output, diffs, statusBar);
  ctx.subscriptions.push(vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, view));
  registerCommands(ctx, ctl, diffs, output, view);
  watchContext(ctx, ctl, context);
  ctx.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (RESTART_SETTINGS.some((s) => e.affectsConfiguration(s))) void ctl.supervisor.restart();
    }),
  );
  void ctl.start();
  return { controller: ctl, diffs, editor };
}

export async function deactivate(): Promise<void> {
  const c = controller;
  controller = undefined;
  await c?.dispose();
}

function registerCommands(
  ctx: vscode.ExtensionContext,
  ctl: ChatController,
  diffs: DiffReviews,
  output: vscode.OutputChannel,
  view: ChatViewProvider,
): void {
  const run = (f: () => Promise<unknown> | unknown) => async () => {
    try {
      await f();
    } catch (err) {
      void vscode.window.showErrorMessage(`Companion: ${errorText(err)}`);
    }
  };
  const decide = (d: "accept" | "reject") => () => {
    if (!diffs.decideActive(d)) void vscode.window.showInformationMessage("Companion: no proposed edit is being reviewed.");
  };
  const commands: Record<string, () => unknown> = {
    "companion.openChat": run(() => vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`)),
    "companion.newSession": run(() => ctl.newSession()),
    "companion.cancel": run(() => ctl.cancel()),
    "companion.acceptDiff": decide("accept"),
    "companion.rejectDiff": decide("reject"),
    "companion.restart": run(() => ctl.supervisor.restart()),
    "companion.setApiKey": run(() => setApiKey(ctx, ctl)),
    "companion.showLog": () => output.show(true),
    "companion.addSelection": run(() => addSelection(view)),
  };
  for (const [id, f] of Object.entries(commands)) ctx.subscriptions.push(vscode.commands.registerCommand(id, f));
}

/** watchContext schedules an IDE context update on every change of what the user sees. */
function watchContext(ctx: vscode.ExtensionContext, ctl: ChatController, source: IdeContextSource): void {
  const changed = () => ctl.contextChanged();
  source.touch();
  ctx.subscriptions.push(
    vscode.window.onDidChangeActiveTextEditor(() => {
      source.touch();
      changed();
    }),
    vscode.window.onDidChangeVisibleTextEditors(changed),
    vscode.window.onDidChangeTextEditorSelection(changed),
    vscode.languages.onDidChangeDiagnostics(changed),
    vscode.workspace.onDidChangeWorkspaceFolders(changed),
    vscode.workspace.onDidGrantWorkspaceTrust(changed),
  );
}

/** addSelection puts the active editor's selection (or its file) into the chat's prompt box. */
async function addSelection(view: ChatViewProvider): Promise<void> {
  const ed = vscode.window.activeTextEditor;
  if (!ed) {
    void vscode.window.showInformationMessage("Companion: open a file and select some text first.");
    return;
  }
  const doc = ed.document;
  const sel = ed.selection;
  const insert = selectionInsert({
    uri: doc.uri.toString(),
    label: vscode.workspace.asRelativePath(doc.uri, false),
    languageId: doc.languageId,
    startLine: sel.start.line + 1,
    // A selection ending at the start of a line does not take that line.
    endLine: sel.end.character === 0 && sel.end.line > sel.start.line ? sel.end.line : sel.end.line + 1,
    text: doc.getText(sel),
  });
  await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
  view.postWhenLoaded({ type: "insertText", ...insert });
}

async function setApiKey(ctx: vscode.ExtensionContext, ctl: ChatController): Promise<void> {
  const key = await vscode.window.showInputBox({
    title: "Companion: API key",
    prompt: "The model provider's API key (Gemini, or OpenAI-compatible with --provider openai). Empty removes the stored key.",
    password: true,
    ignoreFocusOut: true,
  });
  if (key === undefined) return;
  if (key.trim()) await ctx.secrets.store(SECRET_KEY, key.trim());
  else await ctx.secrets.delete(SECRET_KEY);
  await ctl.supervisor.restart();
}

async function launchSpec(ctx: vscode.ExtensionContext): Promise<LaunchSpec> {
  const cfg = vscode.workspace.getConfiguration("companion");
  const shipped = vscode.Uri.joinPath(ctx.extensionUri, "bin", "companion").fsPath;
  return composeLaunch({
    path: cfg.get<string>("path", ""),
    args: cfg.get<string[]>("args", []),
    env: cfg.get<Record<string, string>>("env", {}),
    model: cfg.get<string>("model", ""),
    shippedBinary: shippedBinary(shipped),
    apiKey: await ctx.secrets.get(SECRET_KEY),
    baseEnv: process.env,
    cwd: workspaceRoot(),
  });
}

function workspaceRoot(): string {
  return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? homedir();
}

/**
 * shippedBinary returns the binary packed into the extension, made
 * executable when the .vsix installer dropped the mode bits.
 */
function shippedBinary(file: string): string | undefined {
  if (!existsSync(file)) return undefined;
  try {
    accessSync(file, constants.X_OK);
  } catch {
    chmodSync(file, 0o755);
  }
  return file;
}
