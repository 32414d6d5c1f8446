// The extension's heavy half (out/wiring.js), loaded by extension.ts once the
// chat view's page is set, or sooner when a command or the API needs it: wires the VS Code pieces to the ChatController
// (src/core, with the ACP library), the command handlers, the settings
// reaction and the context watchers, and starts the agent.

import { accessSync, chmodSync, constants, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { homedir } from "node:os";
import * as vscode from "vscode";
import { ChatController, errorText } from "../core/controller";
import type { LaunchSpec } from "../core/connection";
import { composeLaunch } from "../core/launch";
import { selectionInsert } from "../core/selection";
import { formatLanguageServers, formatStats } from "../core/stats";
import { traceLevel, type Tracer } from "../core/trace";
import { type ChatViewProvider, CHAT_VIEW_ID } from "./chatView";
import type { CommandId } from "./commandIds";
import { DiffReviews } from "./diffReviews";
import { IdeContextSource } from "./ideContextSource";
import { StatusBar } from "./statusBar";
import { VscodeEditor } from "./vscodeEditor";

/** The SecretStorage key of the API key. */
const SECRET_KEY = "companion.apiKey";
/** Settings whose change restarts the agent. */
const RESTART_SETTINGS = ["companion.path", "companion.args", "companion.env", "companion.model", "companion.trace"];
/** The workspaceState key of the session the chat showed (restored after a window reload). */
const LAST_SESSION_KEY = "companion.lastSession";
/** The output channel of the ACP trace. */
export const TRACE_CHANNEL = "Companion ACP Trace";

/** Wired is what wire() made: the API of the extension-host tests, and the command handlers. */
export interface Wired {
  controller: ChatController;
  diffs: DiffReviews;
  editor: VscodeEditor;
  commands: Record<CommandId, () => unknown>;
}

/** wire builds the controller and everything around it for the registered view, and starts the agent. */
export function wire(ctx: vscode.ExtensionContext, view: ChatViewProvider, output: vscode.OutputChannel, mark: (name: string) => void): Wired {
  const trace = new TraceChannel();
  const diffs = new DiffReviews();
  const statusBar = new StatusBar();
  const context = new IdeContextSource();
  const editor = new VscodeEditor({ output, diffs, statusBar, context, post: (m) => view.post(m) });
  const ctl = new ChatController(editor, {
    launch: () => launchSpec(ctx),
    cwd: workspaceRoot,
    additionalDirectories: () => (vscode.workspace.workspaceFolders ?? []).slice(1).map((f) => f.uri.fsPath),
    approvalMode: () => vscode.workspace.getConfiguration("companion").get<string>("approvalMode", "default"),
    trusted: () => vscode.workspace.isTrusted,
    lastSession: lastSessionStore(ctx),
    tracer: () => trace.tracer(),
    mark,
  });
  ctx.subscriptions.push(diffs, statusBar, trace); // the controller is stopped by deactivate
  watchContext(ctx, ctl, context);
  ctx.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (RESTART_SETTINGS.some((s) => e.affectsConfiguration(s))) void ctl.supervisor.restart();
    }),
  );
  void ctl.start();
  return { controller: ctl, diffs, editor, commands: commandHandlers(ctx, ctl, diffs, output, view) };
}

/** commandHandlers are the commands' handlers (extension.ts registers them at activation). */
function commandHandlers(
  ctx: vscode.ExtensionContext,
  ctl: ChatController,
  diffs: DiffReviews,
  output: vscode.OutputChannel,
  view: ChatViewProvider,
): Record<CommandId, () => unknown> {
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
  return {
    "companion.openChat": run(() => vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`)),
    "companion.newSession": run(() => ctl.newSession()),
    "companion.cancel": run(() => ctl.cancel()),
    "companion.acceptDiff": decide("accept"),
    "companion.rejectDiff": decide("reject"),
    "companion.restart": run(() => ctl.supervisor.restart()),
    "companion.setApiKey": run(() => setApiKey(ctx, ctl)),
    "companion.showLog": () => output.show(true),
    "companion.addSelection": run(() => addSelection(view)),
    "companion.showStats": run(() => showStats(ctl)),
  };
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

/** showStats opens the current session's figures in a read-only text editor. */
async function showStats(ctl: ChatController): Promise<void> {
  const stats = await ctl.sessionStats();
  if (!stats) {
    void vscode.window.showInformationMessage("Companion: no session figures yet (start a chat; the agent must offer _companion/session/stats).");
    return;
  }
  const doc = await vscode.workspace.openTextDocument({ language: "plaintext", content: `Companion session ${stats.sessionId}\n\n${formatStats(stats)}\n${stats.languageServers ? `\n${formatLanguageServers(stats.languageServers)}\n` : ""}` });
  await vscode.window.showTextDocument(doc, { preview: true });
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
    // With a trace on, the agent logs what it does too (Show Log), unless companion.env says otherwise.
    logLevel: traceLevel(cfg.get("trace")) === "off" ? undefined : "debug",
  });
}

/**
 * lastSessionStore keeps the id of the session the chat shows, for the next
 * window of this workspace: in workspaceState, and in a file in the
 * extension's workspace storage written at once (a browser window such as
 * code-server's can reload before workspaceState reached its database).
 */
function lastSessionStore(ctx: vscode.ExtensionContext): { get(): string | undefined; set(id: string | undefined): void } {
  const file = ctx.storageUri?.scheme === "file" ? path.join(ctx.storageUri.fsPath, "last-session") : undefined;
  return {
    get: () => {
      try {
        if (file && existsSync(file)) return readFileSync(file, "utf8").trim() || undefined;
      } catch {
        // fall back to workspaceState
      }
      return ctx.workspaceState.get<string>(LAST_SESSION_KEY);
    },
    set: (id) => {
      void ctx.workspaceState.update(LAST_SESSION_KEY, id);
      if (!file) return;
      try {
        if (id) {
          mkdirSync(path.dirname(file), { recursive: true });
          writeFileSync(file, id);
        } else {
          rmSync(file, { force: true });
        }
      } catch {
        // workspaceState still has it
      }
    },
  };
}

/** TraceChannel is the "Companion ACP Trace" output channel, made when the trace is first on. */
class TraceChannel implements vscode.Disposable {
  private channel: vscode.OutputChannel | undefined;

  /** tracer is the tracer for a new agent process, per the companion.trace setting now. */
  tracer(): Tracer | undefined {
    const level = traceLevel(vscode.workspace.getConfiguration("companion").get("trace"));
    if (level === "off") return undefined;
    this.channel ??= vscode.window.createOutputChannel(TRACE_CHANNEL);
    const channel = this.channel;
    return { level, write: (line) => channel.appendLine(line) };
  }

  dispose(): void {
    this.channel?.dispose();
  }
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
