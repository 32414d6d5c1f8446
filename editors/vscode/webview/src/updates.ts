// Folding ACP session/update payloads into the view model. Pure (no DOM).

import type * as acp from "@agentclientprotocol/sdk";
import type { Item, SystemItem, TextItem, ToolItem, ToolView, UserItem, ViewState } from "./model";
import { replayedPermission, replayedTurnEnd } from "./replayed";

/** NewItem is any Item without its id and rev (given by push). */
type NewItem = Item extends infer T ? (T extends Item ? Omit<T, "id" | "rev"> : never) : never;

/** push appends a new item with a fresh id. */
export function push<T extends NewItem>(state: ViewState, item: T): T & { id: string; rev: number } {
  const full = { ...item, id: `i${++state.seq}`, rev: 1 } as T & { id: string; rev: number };
  state.items.push(full as unknown as Item);
  return full;
}

/** touch marks an item changed so the renderer redraws it. */
export function touch(item: Item): void {
  item.rev++;
}

/** endStreaming marks the open agent message and thought as complete. */
export function endStreaming(state: ViewState): void {
  for (const it of state.items) {
    if ((it.kind === "agent" || it.kind === "thought") && it.streaming) {
      it.streaming = false;
      touch(it);
    }
  }
}

/** applyUpdate folds one session/update into the model. */
export function applyUpdate(state: ViewState, u: acp.SessionUpdate): void {
  switch (u.sessionUpdate) {
    case "agent_message_chunk": return appendText(state, "agent", u);
    case "agent_thought_chunk": return appendText(state, "thought", u);
    case "user_message_chunk": return appendUser(state, u);
    case "tool_call": return void upsertTool(state, u);
    case "tool_call_update": return answeredOnReplay(state, u, upsertTool(state, u));
    case "plan": state.plan = u.entries; break;
    case "available_commands_update": state.commands = u.availableCommands; break;
    case "current_mode_update": setMode(state, u.currentModeId); break;
    case "config_option_update": state.configOptions = u.configOptions; break;
    case "session_info_update": {
      const end = replayedTurnEnd(u);
      if (end !== undefined) return endedOnReplay(state, end);
      if (u.title !== undefined) state.title = u.title;
      break;
    }
    case "usage_update": state.usage = { used: u.used, size: u.size, cost: u.cost ?? null }; break;
    case "notice": return addNotice(state, u);
    case "compaction_update": return upsertCompaction(state, u);
    case "compaction_summary_chunk": return appendSummary(state, u);
    default: return; // a newer variant this UI does not know: ignore it
  }
  state.chrome++;
}

/** blockText turns a content block into markdown. */
export function blockText(b: acp.ContentBlock): string {
  switch (b.type) {
    case "text": return b.text;
    case "resource_link": return `[${b.title ?? b.name}](${b.uri})`;
    case "resource": return `[${b.resource.uri}](${b.resource.uri})`;
    case "image": return "*(image)*";
    case "audio": return "*(audio)*";
    default: return "";
  }
}

function appendText(state: ViewState, kind: "agent" | "thought", u: acp.ContentChunk): void {
  const last = state.items[state.items.length - 1];
  const text = blockText(u.content);
  if (last && last.kind === kind && last.streaming && sameMessage(last.messageId, u.messageId)) {
    last.text += text;
    touch(last);
    return;
  }
  endStreaming(state);
  push<Omit<TextItem, "id" | "rev">>(state, { kind, text, messageId: u.messageId ?? null, streaming: true });
}

/** sameMessage: chunks without ids join the message before; ids must match otherwise. */
function sameMessage(a?: string | null, b?: string | null): boolean {
  return (a ?? null) === (b ?? null) || b == null;
}

/**
 * appendUser adds a replayed (or echoed) user message chunk. A prompt the
 * webview already shows locally absorbs the echo of its own text and files.
 */
function appendUser(state: ViewState, u: acp.ContentChunk): void {
  const last = state.items[state.items.length - 1];
  const mention = blockMention(u.content);
  if (last?.kind === "user" && last.local && echoes(last, u.content, mention)) return;
  endStreaming(state);
  if (last?.kind === "user" && !last.local && sameMessage(last.messageId, u.messageId)) {
    addToUser(last, u.content, mention);
    touch(last);
    return;
  }
  const item = push<Omit<UserItem, "id" | "rev">>(state, { kind: "user", text: "", mentions: [], messageId: u.messageId ?? null });
  addToUser(item, u.content, mention);
}

function echoes(item: UserItem, b: acp.ContentBlock, mention: { uri: string } | null): boolean {
  if (mention) return item.mentions.some((m) => m.uri === mention.uri);
  if (b.type === "image") return (item.images ?? []).includes(`data:${b.mimeType};base64,${b.data}`);
  return b.type === "text" && item.text.includes(b.text);
}

function addToUser(item: UserItem, b: acp.ContentBlock, mention: UserItem["mentions"][number] | null): void {
  if (b.type === "image") {
    item.images = [...(item.images ?? []), `data:${b.mimeType};base64,${b.data}`];
  } else if (!mention) {
    item.text += blockText(b);
  } else if (!item.mentions.some((m) => m.uri === mention.uri)) {
    item.mentions.push(mention);
  }
}

/** blockMention returns the file a resource block refers to, if it is one. */
function blockMention(b: acp.ContentBlock): UserItem["mentions"][number] | null {
  if (b.type === "resource_link") return { uri: b.uri, label: b.title ?? b.name };
  if (b.type === "resource") return { uri: b.resource.uri, label: baseName(b.resource.uri) };
  return null;
}

/** baseName is the last path segment of a path or URI. */
function baseName(p: string): string {
  const parts = p.split(/[\\/]/);
  return decodeURIComponent(parts[parts.length - 1] || p);
}

function findTool(state: ViewState, id: string): ToolItem | undefined {
  for (let i = state.items.length - 1; i >= 0; i--) {
    const it = state.items[i];
    if (it.kind === "tool" && it.call.toolCallId === id) return it;
  }
  return undefined;
}

/** upsertTool creates a card on tool_call and patches it on tool_call_update. */
function upsertTool(state: ViewState, u: acp.ToolCall | acp.ToolCallUpdate): ToolItem {
  // A message after a tool call is a new message, even when the call's card
  // sits higher up (an update of an earlier call): two model messages never run together.
  endStreaming(state);
  let item = findTool(state, u.toolCallId);
  if (!item) {
    const call: ToolView = { toolCallId: u.toolCallId, title: "Tool call", kind: "other", status: "pending", content: [], locations: [] };
    item = push<Omit<ToolItem, "id" | "rev">>(state, { kind: "tool", call });
  }
  patchTool(item.call, u);
  touch(item);
  return item;
}

/** answeredOnReplay adds the answered card a replayed permission answer stands for. */
function answeredOnReplay(state: ViewState, u: acp.ToolCallUpdate, tool: ToolItem): void {
  const card = replayedPermission(u, tool.call.kind);
  if (card) push(state, card);
}

/** endedOnReplay adds the line a replayed turn end was shown with live. */
function endedOnReplay(state: ViewState, line: Omit<SystemItem, "id" | "rev"> | null): void {
  endStreaming(state);
  if (line) push(state, line);
}

/** patchTool applies the fields an update carries; content and locations replace. */
function patchTool(call: ToolView, u: acp.ToolCall | acp.ToolCallUpdate): void {
  if (u.title != null) call.title = u.title;
  if (u.kind != null) call.kind = u.kind;
  if (u.status != null) call.status = u.status === "failed" ? (toolOutcome(u) ?? "failed") : u.status;
  if (u.content != null) call.content = u.content;
  if (u.locations != null) call.locations = u.locations;
  const out = (u._meta as { companion?: { terminalOutput?: { terminalId?: unknown; tail?: unknown; exit?: unknown } } } | null | undefined)?.companion?.terminalOutput;
  if (out && typeof out.terminalId === "string" && typeof out.tail === "string") {
    call.terminalOutput = { ...call.terminalOutput, [out.terminalId]: { tail: out.tail, exit: typeof out.exit === "string" ? out.exit : null } };
  }
}

/**
 * toolOutcome tells a user's decision from a failure: companion's
 * `_meta.companion.outcome` ("rejected" / "cancelled", or "blocked" for a
 * call loop detection stopped), else the tool
 * result's own words (rawOutput or text content).
 */
export function toolOutcome(u: acp.ToolCall | acp.ToolCallUpdate): "rejected" | "cancelled" | "blocked" | null {
  const meta = (u._meta as { companion?: { outcome?: unknown } } | null | undefined)?.companion?.outcome;
  if (meta === "rejected" || meta === "cancelled" || meta === "blocked") return meta;
  const texts: string[] = [];
  if (typeof u.rawOutput === "string") texts.push(u.rawOutput);
  else if (u.rawOutput && typeof u.rawOutput === "object") {
    for (const v of Object.values(u.rawOutput as Record<string, unknown>)) if (typeof v === "string") texts.push(v);
  }
  for (const c of u.content ?? []) if (c.type === "content" && c.content.type === "text") texts.push(c.content.text);
  for (const t of texts) {
    if (/^\s*The user rejected\b/.test(t)) return "rejected";
    if (/^\s*The user cancelled\b/.test(t)) return "cancelled";
  }
  return null;
}

function setMode(state: ViewState, modeId: string): void {
  if (state.modes) state.modes.currentModeId = modeId;
  for (const o of state.configOptions) {
    if (o.category === "mode" && o.type === "select") o.currentValue = modeId;
  }
}

function addNotice(state: ViewState, u: acp.Notice): void {
  const text = u.description ? `${u.title}: ${u.description}` : u.title;
  push<Omit<SystemItem, "id" | "rev">>(state, { kind: "system", sysKind: "notice", text, severity: u.severity });
}

function findCompaction(state: ViewState, id: string): SystemItem | undefined {
  return state.items.find((it): it is SystemItem => it.kind === "system" && it.sysKind === "compaction" && it.key === id);
}

/** compactionText says where a compaction stands. */
function compactionText(status: string, error?: string | null): string {
  switch (status) {
    case "in_progress": return "Compacting the conversation…";
    case "completed": return "Conversation compacted.";
    case "failed": return `Compaction failed${error ? `: ${error}` : "."}`;
    case "cancelled": return "Compaction cancelled.";
    default: return `Compaction: ${status}`;
  }
}

function upsertCompaction(state: ViewState, u: acp.CompactionUpdate): void {
  let item = findCompaction(state, u.compactionId);
  if (!item) {
    item = push<Omit<SystemItem, "id" | "rev">>(state, { kind: "system", sysKind: "compaction", text: "", key: u.compactionId });
  }
  item.text = compactionText(u.status, u.error);
  if (u.summary !== undefined) item.detail = (u.summary ?? []).map(blockText).join("");
  touch(item);
}

function appendSummary(state: ViewState, u: acp.CompactionSummaryChunk): void {
  const item = findCompaction(state, u.compactionId);
  if (!item) return;
  item.detail = (item.detail ?? "") + blockText(u.content);
  touch(item);
}
