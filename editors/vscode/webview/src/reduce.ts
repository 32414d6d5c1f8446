// The reducer from extension messages to the view model (model.ts).
// Pure: no DOM, so it runs under node in the unit tests.

import type * as acp from "@agentclientprotocol/sdk";
import { emptyState, type PermissionItem, type ViewState } from "./model";
import type { FileMention, ImageAttachment, ToWebview } from "./protocol";
import { openChanges } from "./changes";
import { turnEndText } from "./replayed";
import { applyUpdate, endStreaming, push, touch } from "./updates";

/** apply changes state for one message from the extension. */
export function apply(state: ViewState, msg: ToWebview): void {
  switch (msg.type) {
    case "status": return applyStatus(state, msg);
    case "session": return applySession(state, msg);
    case "replayDone":
      if (msg.sessionId === state.sessionId) state.replaying = false;
      endStreaming(state);
      return chrome(state);
    case "update":
      if (msg.sessionId === state.sessionId || state.sessionId === null) applyUpdate(state, msg.update);
      return;
    case "turn": return applyTurn(state, msg);
    case "permission": return applyPermission(state, msg);
    case "permissionDone": return settlePermission(state, msg.requestId, msg.optionId ?? null);
    case "sessions":
      state.sessions = msg.sessions;
      state.sessionsError = msg.error ?? null;
      return chrome(state);
    case "rewound": return rewound(state, msg);
    case "error":
      endRewind(state);
      // While the agent is down, the way out (Restart agent) stays on the banner.
      state.banner = { kind: "error", text: msg.message, restart: agentDown(state) || undefined };
      return chrome(state);
    case "promptFailed": return promptFailed(state, msg);
    case "files":
    case "insertText":
      return; // composer business, not part of the model
  }
}

/** agentDown: the agent is not running and only a restart brings it back. */
function agentDown(state: ViewState): boolean {
  return state.status?.state === "error" || state.status?.state === "stopped";
}

/** promptFailed takes back the prompt shown on send (the composer gets its text back) and says why. */
function promptFailed(state: ViewState, msg: Extract<ToWebview, { type: "promptFailed" }>): void {
  for (let i = state.items.length - 1; i >= 0; i--) {
    const it = state.items[i];
    if (it.kind === "user" && it.local && it.text === msg.text && (it.images?.length ?? 0) === (msg.images?.length ?? 0)) {
      state.items.splice(i, 1);
      break;
    }
  }
  state.promptError = msg.error;
  chrome(state);
}

function chrome(state: ViewState): void {
  state.chrome++;
}

function applyStatus(state: ViewState, msg: Extract<ToWebview, { type: "status" }>): void {
  state.status = msg;
  state.acceptsImages = msg.acceptsImages === true;
  state.canRewind = msg.canRewind === true;
  const text = msg.message ?? "";
  if (msg.state === "error" || msg.state === "stopped") {
    state.banner = { kind: "error", text: text || `The agent ${msg.state === "error" ? "failed" : "stopped"}.`, restart: true };
  } else if (msg.state === "starting" || msg.state === "restarting") {
    state.banner = { kind: "status", text: text || (msg.state === "starting" ? "Starting companion…" : "Restarting companion…") };
  } else if (state.banner?.kind === "status" || state.banner?.restart) {
    state.banner = null;
  }
  chrome(state);
}

/** applySession starts a fresh transcript: the view is rebuilt from what follows. */
function applySession(state: ViewState, msg: Extract<ToWebview, { type: "session" }>): void {
  const fresh = emptyState();
  fresh.status = state.status;
  fresh.acceptsImages = state.acceptsImages;
  fresh.canRewind = state.canRewind;
  fresh.banner = state.banner?.kind === "error" && !state.banner.restart ? null : state.banner;
  fresh.sessions = state.sessions;
  fresh.commands = msg.sessionId === state.sessionId ? state.commands : [];
  fresh.seq = state.seq; // ids stay unique across resets, so the renderer never mixes them up
  fresh.chrome = state.chrome + 1;
  Object.assign(state, fresh, {
    sessionId: msg.sessionId,
    cwd: msg.cwd,
    title: msg.title ?? null,
    modes: msg.modes ?? null,
    configOptions: msg.configOptions ?? [],
    replaying: msg.replaying,
  });
}

function applyTurn(state: ViewState, msg: Extract<ToWebview, { type: "turn" }>): void {
  if (msg.sessionId !== state.sessionId) return;
  state.turn = msg.state;
  chrome(state);
  if (msg.state === "running") {
    state.changes = null; // a new turn: the last one's list goes
    return;
  }
  endStreaming(state);
  if (msg.stopReason === "cancelled") cancelUnfinished(state);
  const line = turnEndText(msg.stopReason, msg.error);
  if (line) push(state, { kind: "system", sysKind: msg.error ? "error" : "turn-end", text: line });
  openChanges(state);
}

/** cancelUnfinished marks tool calls that never finished as cancelled (ACP has no such status). */
function cancelUnfinished(state: ViewState): void {
  for (const it of state.items) {
    if (it.kind === "tool" && (it.call.status === "pending" || it.call.status === "in_progress")) {
      it.call.status = "cancelled";
      touch(it);
    }
    if (it.kind === "permission" && !it.answered) {
      it.answered = { optionId: null };
      touch(it);
    }
  }
}

function applyPermission(state: ViewState, msg: Extract<ToWebview, { type: "permission" }>): void {
  if (findPermission(state, msg.requestId)) return; // re-sent on ready: already shown
  const toolKind = msg.toolCall.kind ?? "other";
  push(state, {
    kind: "permission",
    requestId: msg.requestId,
    title: msg.toolCall.title ?? "The agent asks for permission",
    toolKind,
    options: msg.options,
    inDiffEditor: msg.inDiffEditor,
    ...(toolKind === "switch_mode" ? { plan: textOf(msg.toolCall.content) } : {}),
  });
}

/** textOf joins the text blocks of a tool call's content. */
function textOf(content: acp.ToolCallContent[] | null | undefined): string {
  return (content ?? []).flatMap((c) => (c.type === "content" && c.content.type === "text" ? [c.content.text] : [])).join("\n\n");
}

function findPermission(state: ViewState, requestId: string): PermissionItem | undefined {
  return state.items.find((it): it is PermissionItem => it.kind === "permission" && it.requestId === requestId);
}

/** settlePermission marks a card answered; its buttons go away. */
export function settlePermission(state: ViewState, requestId: string, optionId: string | null): void {
  const it = findPermission(state, requestId);
  if (!it) return;
  it.answered = { optionId };
  touch(it);
}

/** addLocalPrompt shows a prompt the user just sent, before the agent answers. */
export function addLocalPrompt(state: ViewState, text: string, mentions: FileMention[], images: ImageAttachment[] = []): void {
  endStreaming(state);
  if (state.promptError) {
    state.promptError = null;
    chrome(state);
  }
  push(state, { kind: "user", text, mentions, local: true, ...(images.length ? { images: images.map(dataUrl) } : {}) });
}

/** dataUrl shows an attachment as a data: URL (the webview CSP allows data: images). */
export function dataUrl(img: { mimeType: string; data: string }): string {
  return `data:${img.mimeType};base64,${img.data}`;
}

/** setConfigValue records a picker choice at once (the agent confirms with config_option_update). */
export function setConfigValue(state: ViewState, configId: string, value: string): void {
  const opt = state.configOptions.find((o) => o.id === configId);
  if (opt && opt.type === "select") opt.currentValue = value;
  if (opt?.category === "mode" && state.modes) state.modes.currentModeId = value;
  chrome(state);
}

/** dismissBanner hides the banner (the user closed it). */
export function dismissBanner(state: ViewState): void {
  state.banner = null;
  chrome(state);
}

/** rewindable: "Rewind to here" is offered (the agent can, no turn runs, nothing is loading). */
export function rewindable(state: ViewState): boolean {
  return state.canRewind === true && state.sessionId !== null && state.turn === "idle" && !state.replaying && !state.rewinding;
}

/** promptIndex is the 0-based position of a user message among the session's user messages (what the agent counts). */
export function promptIndex(state: ViewState, itemId: string): number {
  let n = 0;
  for (const it of state.items) {
    if (it.kind !== "user") continue;
    if (it.id === itemId) return n;
    n++;
  }
  return -1;
}

/** askRewind shows the confirmation on one user message (and closes any other). */
export function askRewind(state: ViewState, itemId: string): void {
  for (const it of state.items) {
    if (it.kind !== "user") continue;
    const want = it.id === itemId && rewindable(state);
    if (!!it.confirming === want) continue;
    it.confirming = want || undefined;
    touch(it);
  }
}

/** cancelRewind closes the confirmation. */
export function cancelRewind(state: ViewState): void {
  askRewind(state, "");
}

/**
 * confirmRewind answers the confirmation: the prompt index to send with the
 * `rewind` message, or null when the message is gone or rewinding is not offered.
 */
export function confirmRewind(state: ViewState, itemId: string): number | null {
  const index = rewindable(state) ? promptIndex(state, itemId) : -1;
  cancelRewind(state);
  if (index < 0) return null;
  state.rewinding = true;
  chrome(state);
  return index;
}

/** endRewind: a rewind failed (the chat stays as it was) or finished. */
function endRewind(state: ViewState): void {
  if (!state.rewinding) return;
  state.rewinding = false;
  chrome(state);
}

/** rewound tells which files the rewind put back (the fork's replay came first). */
function rewound(state: ViewState, msg: Extract<ToWebview, { type: "rewound" }>): void {
  endRewind(state);
  if (msg.sessionId !== state.sessionId) return;
  push(state, { kind: "system", sysKind: "notice", text: restoredText(msg.restored) });
}

/** restoredText is the notice after a rewind: the restored files by name. */
export function restoredText(restored: string[]): string {
  if (restored.length === 0) return "Rewound. No files needed restoring.";
  const names = restored.map((p) => p.split(/[\\/]/).pop() || p);
  const shown = names.length > 5 ? [...names.slice(0, 5), `${names.length - 5} more`] : names;
  return `Rewound. Restored ${restored.length === 1 ? "1 file" : `${restored.length} files`} to before that message: ${shown.join(", ")}.`;
}
