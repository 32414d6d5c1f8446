// The webview's view model: everything the chat shows, as plain JSON so it
// can be kept with vscode.setState and restored after the view was hidden.
//
// The model is changed in place by the reducer in reduce.ts (a transcript
// can hold thousands of chunks; copying it per chunk would be wasteful).
// Every transcript item carries `rev`, bumped on each change, so the
// renderer re-renders only the items that changed since it last looked.

import type * as acp from "@agentclientprotocol/sdk";
import type { TurnChanges } from "./changes";
import type { FileMention, SessionSummary, ToWebview } from "./protocol";

/** AgentStatus is the agent process state shown in the header. */
export type AgentStatus = Extract<ToWebview, { type: "status" }>;

/**
 * ToolStatus is an ACP tool call status, plus the user's decisions
 * "rejected" and "cancelled" and the agent's own "blocked" (loop detection
 * stopped a repeated call): none of them a failure.
 */
export type ToolStatus = acp.ToolCallStatus | "rejected" | "cancelled" | "blocked";

/** ToolView is a tool call as accumulated from tool_call / tool_call_update. */
export interface ToolView {
  toolCallId: string;
  title: string;
  kind: acp.ToolKind;
  status: ToolStatus;
  content: acp.ToolCallContent[];
  locations: acp.ToolCallLocation[];
  /** The last lines of each terminal the call runs in, by terminal id (the extension's `_meta.companion.terminalOutput`). */
  terminalOutput?: Record<string, { tail: string; exit: string | null }>;
}

interface ItemBase {
  /** id is unique within the transcript and stable across renders. */
  id: string;
  rev: number;
}

/** UserItem is a prompt the user sent (or a replayed user message). */
export interface UserItem extends ItemBase {
  kind: "user";
  text: string;
  mentions: FileMention[];
  /** Images sent with the message, as data: URLs. */
  images?: string[];
  messageId?: string | null;
  /** local is true for a prompt shown on send, before any echo of it. */
  local?: boolean;
  /** confirming is true while the "Rewind to here" confirmation shows on this message. */
  confirming?: boolean;
}

/** TextItem is an agent message or a thought, as markdown text. */
export interface TextItem extends ItemBase {
  kind: "agent" | "thought";
  text: string;
  messageId?: string | null;
  /** streaming is true while chunks may still be appended. */
  streaming: boolean;
}

/** ToolItem is one tool call card. */
export interface ToolItem extends ItemBase {
  kind: "tool";
  call: ToolView;
}

/** PermissionItem is a permission request card. */
export interface PermissionItem extends ItemBase {
  kind: "permission";
  requestId: string;
  title: string;
  toolKind: acp.ToolKind;
  options: acp.PermissionOption[];
  inDiffEditor: boolean;
  /** plan is the markdown a mode switch asks about (exit_plan_mode's plan, enter_plan_mode's reason). */
  plan?: string;
  /** answered is set once the request is settled; optionId null = dismissed. */
  answered?: { optionId: string | null };
}

/** SystemItem is a small line: a notice, a compaction, a turn end, an error. */
export interface SystemItem extends ItemBase {
  kind: "system";
  sysKind: "notice" | "compaction" | "turn-end" | "error";
  text: string;
  severity?: string;
  /** key identifies the line for patches (a compactionId). */
  key?: string;
  /** detail is longer text shown collapsed (a compaction summary). */
  detail?: string;
}

/** Item is one entry of the transcript. */
export type Item = UserItem | TextItem | ToolItem | PermissionItem | SystemItem;

/** Usage is the context window use from usage_update. */
export interface Usage {
  used: number;
  size: number;
  cost?: { amount: number; currency: string } | null;
}

/** Banner is the one-line message under the header. */
export interface Banner {
  kind: "error" | "status";
  text: string;
  /** restart offers a "Restart agent" button. */
  restart?: boolean;
}

/** ViewState is the whole model of the chat view. */
export interface ViewState {
  version: 1;
  sessionId: string | null;
  cwd: string;
  title: string | null;
  status: AgentStatus | null;
  banner: Banner | null;
  replaying: boolean;
  turn: "running" | "idle";
  items: Item[];
  plan: acp.PlanEntry[];
  commands: acp.AvailableCommand[];
  configOptions: acp.SessionConfigOption[];
  modes: acp.SessionModeState | null;
  usage: Usage | null;
  /** sessions is the history list; null until asked for. */
  sessions: SessionSummary[] | null;
  sessionsError: string | null;
  /** acceptsImages: the agent takes image blocks (pasted images can be sent). */
  acceptsImages?: boolean;
  /** canRewind: the agent can rewind the conversation to before a user message. */
  canRewind?: boolean;
  /** rewinding is true from a confirmed rewind until the fork shows (or an error). */
  rewinding?: boolean;
  /** promptError says why the last prompt was not delivered (shown by the prompt box, which got it back). */
  promptError?: string | null;
  /** changes is the "changed this turn" list (changes.ts), null when none is open. */
  changes?: TurnChanges | null;
  /** seq numbers new items. */
  seq: number;
  /** chrome is bumped when anything outside the transcript changes. */
  chrome: number;
}

/** emptyState returns the model of a view that has shown nothing yet. */
export function emptyState(): ViewState {
  return {
    version: 1,
    sessionId: null,
    cwd: "",
    title: null,
    status: null,
    banner: null,
    replaying: false,
    turn: "idle",
    items: [],
    plan: [],
    commands: [],
    configOptions: [],
    modes: null,
    usage: null,
    sessions: null,
    sessionsError: null,
    changes: null,
    seq: 0,
    chrome: 0,
  };
}

/** isViewState tells whether a value restored by getState is a usable model. */
export function isViewState(v: unknown): v is ViewState {
  const s = v as ViewState | null;
  return !!s && typeof s === "object" && s.version === 1 && Array.isArray(s.items) && typeof s.seq === "number";
}
