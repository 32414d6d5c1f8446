// The small editor interface the ACP glue needs. src/vscode implements it
// with the VS Code API; the unit tests implement it in memory, so everything
// under src/core runs under plain Node without VS Code.

import type { ToWebview, FileMention } from "../webviewProtocol";
import type { IdeContext } from "./ideContext";
import type { SessionStats } from "./stats";
import type { LanguageAnswer, LanguageRequest } from "./language";

/** A proposed edit shown for review (left: current text, right: proposal). */
export interface EditProposal {
  /** Absolute path of the file being edited. */
  path: string;
  /** The current text; null when the file does not exist yet. */
  oldText: string | null;
  /** The agent's proposed text. */
  newText: string;
  /** Tab title. */
  title: string;
}

/** An open diff review. */
export interface DiffReview {
  /** Settles when the user presses Accept or Reject in the diff editor. */
  readonly decision: Promise<"accept" | "reject">;
  /** The proposal as it is now, including the user's own changes. */
  currentText(): string;
  /** Brings the diff editor to the front with the keyboard in it (the card's Review button). */
  show(): Promise<void>;
  /** Closes the diff editor and forgets its documents. */
  close(): Promise<void>;
}

/** What a terminal view shows; the core writes process output into it. */
export interface TerminalView {
  /** Appends process output (raw, `\n` line ends). */
  write(data: string): void;
  /** Tells the view the process ended. */
  exited(summary: string): void;
  /** Brings the view to the front (the chat card's "show terminal" link). */
  show(): void;
  /** Removes the view. */
  dispose(): void;
}

/** The agent state shown in the status bar. */
export interface StatusInfo {
  state: "starting" | "ready" | "restarting" | "error" | "stopped";
  message?: string;
  /** Tokens used / context size from the last usage_update. */
  usage?: { used: number; size: number };
  /** The current session's figures after its last turn (STATS_METHOD), when the agent offers them. */
  stats?: SessionStats;
}

/** Editor is everything the ACP glue asks of its host editor. */
export interface Editor {
  /** The unsaved text of an open document for this absolute path, if open. */
  openDocumentText(path: string): string | undefined;
  /**
   * Replaces (or creates) the file's content through the editor's undo
   * stack, then saves it.
   */
  writeFile(path: string, content: string): Promise<void>;
  /** Removes a file (the revert of a file the agent created), through the editor's undo stack. */
  deleteFile(path: string): Promise<void>;
  /** Opens a diff of a file's text before the last turn (oldText) against the file now. */
  showChange(path: string, oldText: string): Promise<void>;
  /**
   * Opens a diff editor for a proposed edit without taking the keyboard:
   * the user may be typing elsewhere (DiffReview.show moves it there).
   */
  openDiff(proposal: EditProposal): Promise<DiffReview>;
  /**
   * Creates a visible terminal for a command. onClose runs when the user
   * closes it (the core then kills the process).
   */
  createTerminalView(name: string, onClose: () => void): TerminalView;
  /** Posts a message to the chat webview (dropped when it is not shown). */
  post(message: ToWebview): void;
  /** Shows the agent state (status bar). */
  showStatus(status: StatusInfo): void;
  /** Opens a file at a 1-based line. */
  openLocation(path: string, line?: number | null): Promise<void>;
  /** Workspace files matching a query, for `@` mentions. */
  findFiles(query: string): Promise<FileMention[]>;
  /** What the user sees right now (editors, selection, diagnostics). */
  ideContext(): IdeContext;
  /** A line for the output channel. */
  log(line: string): void;
  /**
   * Lets the user pick one item (or, with many, any number) of labels;
   * resolves with the picked indexes, or undefined when dismissed.
   */
  pick(prompt: string, labels: string[], many: boolean, signal: AbortSignal): Promise<number[] | undefined>;
  /**
   * Asks for a line of text, prefilled with value; validate returns an
   * error message for text that cannot be accepted. Undefined when
   * dismissed.
   */
  input(prompt: string, value: string, validate: (text: string) => string | undefined, signal: AbortSignal): Promise<string | undefined>;
  /**
   * Answers companion's language question (an LSP request about a file) with
   * the editor's own language features: `{ available: false }` when it has
   * none for the file. Absent: the editor never has any.
   */
  language?(req: LanguageRequest): Promise<LanguageAnswer>;
}
