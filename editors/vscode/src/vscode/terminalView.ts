// A real VS Code terminal showing an agent command's live output, through a
// Pseudoterminal: the process runs in the extension host (src/core/terminals.ts)
// and its output is written here as it arrives.

import * as vscode from "vscode";
import type { TerminalView } from "../core/editor";

/** createTerminalView opens a terminal named `name`; closing it calls onClose. */
export function createTerminalView(name: string, onClose: () => void): TerminalView {
  const write = new vscode.EventEmitter<string>();
  let opened = false;
  let pending = ""; // output that arrived before VS Code opened the terminal
  const emit = (s: string) => {
    const text = s.replace(/\r?\n/g, "\r\n"); // terminals need CR LF
    if (opened) write.fire(text);
    else pending += text;
  };
  const pty: vscode.Pseudoterminal = {
    onDidWrite: write.event,
    open: () => {
      opened = true;
      if (pending) write.fire(pending);
      pending = "";
    },
    close: onClose,
  };
  const terminal = vscode.window.createTerminal({ name, pty, isTransient: true });
  terminal.show(true);
  return {
    write: emit,
    exited: (summary) => emit(`\n[${summary}]\n`),
    show: () => terminal.show(false),
    dispose: () => terminal.dispose(),
  };
}
