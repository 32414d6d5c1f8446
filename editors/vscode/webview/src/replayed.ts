// What only a replay (session/load) carries: the answers the user gave to
// permission questions and why a turn ended. Live, the permission request
// and the prompt's answer say these; replayed, companion sends them in
// `_meta.companion` of updates that change nothing else (a tool_call_update
// of the call asked about, a session_info_update). Pure (no DOM).

import type * as acp from "@agentclientprotocol/sdk";
import type { PermissionItem, SystemItem } from "./model";

interface ReplayedPermission {
  title?: unknown;
  options?: unknown;
  optionId?: unknown;
}

interface ReplayedTurnEnd {
  stopReason?: unknown;
  error?: unknown;
}

function companionMeta(u: { _meta?: unknown }): Record<string, unknown> | undefined {
  const c = (u._meta as { companion?: unknown } | null | undefined)?.companion;
  return c && typeof c === "object" ? (c as Record<string, unknown>) : undefined;
}

/**
 * replayedPermission is the answered permission card a tool_call_update
 * carrying `_meta.companion.permission` stands for (the card gets its id
 * when pushed); null when the update carries none.
 */
export function replayedPermission(u: acp.ToolCallUpdate, toolKind: acp.ToolKind): Omit<PermissionItem, "id" | "rev"> | null {
  const p = companionMeta(u)?.permission as ReplayedPermission | undefined;
  if (!p || typeof p !== "object" || !Array.isArray(p.options)) return null;
  return {
    kind: "permission",
    requestId: `replayed-${u.toolCallId}`,
    title: typeof p.title === "string" && p.title ? p.title : "The agent asked for permission",
    toolKind,
    options: p.options as acp.PermissionOption[],
    inDiffEditor: false,
    answered: { optionId: typeof p.optionId === "string" ? p.optionId : null },
  };
}

/**
 * replayedTurnEnd is the line a turn's end was shown with live, for a
 * session_info_update carrying `_meta.companion.turnEnd`: undefined when
 * the update carries none, null when the end is not worth a line.
 */
export function replayedTurnEnd(u: acp.SessionInfoUpdate): Omit<SystemItem, "id" | "rev"> | null | undefined {
  const end = companionMeta(u)?.turnEnd as ReplayedTurnEnd | undefined;
  if (!end || typeof end !== "object") return undefined;
  const error = typeof end.error === "string" && end.error ? end.error : undefined;
  const line = turnEndText(typeof end.stopReason === "string" ? (end.stopReason as acp.StopReason) : undefined, error);
  return line ? { kind: "system", sysKind: error ? "error" : "turn-end", text: line } : null;
}

/** turnEndText says why a turn ended, when that is worth a line. */
export function turnEndText(stop?: acp.StopReason, error?: string): string | null {
  if (error) return `The turn failed: ${error}`;
  switch (stop) {
    case "cancelled": return "Cancelled.";
    case "max_tokens": return "Stopped: the answer hit the output token limit.";
    case "max_turn_requests": return "Stopped: too many model requests in one turn.";
    case "refusal": return "The agent refused to continue; this prompt is not kept in the conversation.";
    default: return null;
  }
}
