// Extension entry point, kept light so the chat view is resolved at once: it
// registers the view and the commands, and loads the heavy half
// (out/wiring.js: the controller and the ACP library, whose schemas take a
// while to build) once the view's page is set, while VS Code loads that
// page; a command, a message from the page or the API loads it sooner.
// The agent is stopped on deactivate.

import * as vscode from "vscode";
import { ChatViewProvider, CHAT_VIEW_ID } from "./chatView";
import { COMMAND_IDS } from "./commandIds";
import type { Wired } from "./wiring";

/** The API returned by activate (the extension-host tests use it). */
export type CompanionApi = Omit<Wired, "commands">;

let wired: Wired | undefined;

export function activate(ctx: vscode.ExtensionContext): CompanionApi {
  const activated = Date.now();
  const output = vscode.window.createOutputChannel("Companion");
  ctx.subscriptions.push(output);
  // Timing marks of the way to a usable chat (reload → prompt box); the epoch lets a test line them up with its own clock.
  const mark = (name: string) => output.appendLine(`[timing] ${name}: ${Date.now() - activated} ms after activation (at ${Date.now()})`);
  mark("activated");
  const view = new ChatViewProvider(ctx.extensionUri, (m) => void core().controller.handle(m), mark, () => setImmediate(core));
  ctx.subscriptions.push(vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, view));
  let own: Wired | undefined;
  const core = (): Wired => {
    if (!own) {
      // Loaded at run time (esbuild keeps it out of this bundle).
      const { wire } = require("./wiring.js") as typeof import("./wiring");
      own = wire(ctx, view, output, mark);
      wired = own;
      mark("controller ready");
    }
    return own;
  };
  for (const id of COMMAND_IDS) ctx.subscriptions.push(vscode.commands.registerCommand(id, () => core().commands[id]()));
  return {
    get controller() {
      return core().controller;
    },
    get diffs() {
      return core().diffs;
    },
    get editor() {
      return core().editor;
    },
  };
}

export async function deactivate(): Promise<void> {
  const w = wired;
  wired = undefined;
  await w?.controller.dispose();
}
