// The messages between the extension host and the chat webview.
//
// The extension is the only ACP client; the webview only renders and asks.
// Session updates are forwarded as the ACP `update` objects themselves
// (the `update` field of a session/update notification), so the webview's
// renderer is the one place that knows how each ACP update looks.
//
// Rule for changing this file: add message types or optional fields; never
// rename or remove one without changing both sides in the same commit.

import type * as acp from "@agentclientprotocol/sdk";

/** A file offered for an `@` mention, or chosen as one. */
export interface FileMention {
  /** An absolute file:// URI. */
  uri: string;
  /** What the user sees, usually the workspace-relative path. */
  label: string;
  description?: string;
}

/** An image pasted or dropped into the prompt box, sent as an ACP image block. */
export interface ImageAttachment {
  mimeType: string;
  /** The image bytes, base64. */
  data: string;
  /** The file name, when it had one. */
  name?: string;
}

/** One entry of the session history list (from session/list). */
export interface SessionSummary {
  sessionId: string;
  cwd: string;
  title?: string | null;
  updatedAt?: string | null;
}

/** Messages the extension posts to the webview. */
export type ToWebview =
  /** The agent process state; shown in the header. */
  | {
      type: "status";
      state: "starting" | "ready" | "restarting" | "error" | "stopped";
      message?: string;
      agent?: { name: string; version?: string };
      /** The agent advertised promptCapabilities.image (pasted images can be sent). */
      acceptsImages?: boolean;
      /** The agent advertised `agentCapabilities._meta.companion.rewind` (user messages offer "Rewind to here"). */
      canRewind?: boolean;
    }
  /**
   * A session became current. The webview clears its transcript; when
   * `replaying` is true the updates that follow are the stored history of a
   * loaded session, until a `replayDone`.
   */
  | {
      type: "session";
      sessionId: string;
      cwd: string;
      title?: string | null;
      modes?: acp.SessionModeState | null;
      configOptions?: acp.SessionConfigOption[] | null;
      replaying: boolean;
    }
  | { type: "replayDone"; sessionId: string }
  /** A session/update notification's `update`, verbatim. */
  | { type: "update"; sessionId: string; update: acp.SessionUpdate }
  /** A prompt turn started (after the user's message) or ended. */
  | { type: "turn"; sessionId: string; state: "running" }
  | { type: "turn"; sessionId: string; state: "idle"; stopReason?: acp.StopReason; error?: string }
  /**
   * A permission request. `inDiffEditor` is true for edits being reviewed in
   * VS Code's diff editor (the card then only says so and offers the same
   * options as a fallback); otherwise the card is the only way to answer.
   */
  | { type: "permission"; requestId: string; sessionId: string; toolCall: acp.ToolCallUpdate; options: acp.PermissionOption[]; inDiffEditor: boolean }
  /** A permission request was answered (in the diff editor, a card, or cancelled). */
  | { type: "permissionDone"; requestId: string; optionId?: string | null }
  /** The answer to a `listSessions`. */
  | { type: "sessions"; sessions: SessionSummary[]; error?: string }
  /** The answer to a `searchFiles`. */
  | { type: "files"; requestId: string; items: FileMention[] }
  /** Text for the prompt box (e.g. "Add selection to chat"). */
  | { type: "insertText"; text: string; mentions?: FileMention[] }
  /** A prompt could not be delivered (the agent is not running, a turn runs…): it goes back to the box with the error. */
  | { type: "promptFailed"; text: string; mentions: FileMention[]; error: string; images?: ImageAttachment[] }
  /**
   * A rewind finished: the chat switched to the fork (a `session` + replay came
   * first). `text` / `mentions` are the rewound prompt, for the prompt box;
   * `restored` the absolute paths of the files put back.
   */
  | { type: "rewound"; sessionId: string; text: string; mentions: FileMention[]; restored: string[] }
  | { type: "error"; message: string };

/** Messages the webview posts to the extension. */
export type FromWebview =
  /** The webview loaded (again) and wants the current state re-sent. */
  | { type: "ready" }
  /** Send a prompt. The extension turns mentions into resource / resource_link blocks. */
  | { type: "prompt"; text: string; mentions: FileMention[]; images?: ImageAttachment[] }
  | { type: "cancel" }
  /**
   * optionId null means the user dismissed the request (outcome "cancelled").
   * `message` is the user's note with the choice (a plan card's "Keep
   * planning"), sent to the agent as `_meta.companion.message`.
   */
  | { type: "permissionResponse"; requestId: string; optionId: string | null; message?: string }
  /** Bring the diff editor of an edit's permission request to the front, with the keyboard (the card's Review button). */
  | { type: "reviewDiff"; requestId: string }
  | { type: "setConfigOption"; configId: string; value: string }
  | { type: "setMode"; modeId: string }
  | { type: "newSession" }
  | { type: "listSessions" }
  | { type: "loadSession"; sessionId: string }
  /** Rewind the current session to before its `prompt`-th user message (0-based), restoring files. */
  | { type: "rewind"; prompt: number }
  /** Open a tool call location. `line` is 1-based as in ACP ToolCallLocation. */
  | { type: "openLocation"; path: string; line?: number | null }
  /** Files matching `query` for the `@` completion. */
  | { type: "searchFiles"; requestId: string; query: string }
  /** Show what the last turn did to a file ("changed this turn"): its text before the turn (null: it did not exist) against the file now. */
  | { type: "showChange"; path: string; oldText: string | null }
  /** Put files the last turn changed back as they were before it (null: the turn created it, so it is removed). */
  | { type: "revertChanges"; files: { path: string; oldText: string | null }[] }
  /** Bring the terminal a command runs (or ran) in to the front. */
  | { type: "focusTerminal"; terminalId: string }
  | { type: "restartAgent" }
  /** A timing mark of the page (ms since its navigation started), logged by the extension. */
  | { type: "timing"; name: string; ms: number };
