// Transcript keeps every session update the webview was shown, per session,
// so a webview that was hidden and shown again (or reloaded) gets the whole
// conversation replayed. Adjacent text chunks of one message are merged, so
// a long streamed answer is stored as one update, not thousands.

import type * as acp from "@agentclientprotocol/sdk";

type ChunkKind = "user_message_chunk" | "agent_message_chunk" | "agent_thought_chunk";

function isTextChunk(u: acp.SessionUpdate): u is acp.SessionUpdate & { sessionUpdate: ChunkKind; content: { type: "text"; text: string } } {
  return (
    (u.sessionUpdate === "user_message_chunk" || u.sessionUpdate === "agent_message_chunk" || u.sessionUpdate === "agent_thought_chunk") &&
    u.content.type === "text"
  );
}

/** Transcript stores session updates per session id. */
export class Transcript {
  private readonly bySession = new Map<string, acp.SessionUpdate[]>();

  /** add records one update of a session. */
  add(sessionId: string, update: acp.SessionUpdate): void {
    let list = this.bySession.get(sessionId);
    if (!list) {
      list = [];
      this.bySession.set(sessionId, list);
    }
    const last = list[list.length - 1];
    if (last && isTextChunk(last) && isTextChunk(update) && canMerge(last, update)) {
      // Replace rather than mutate: the original object was posted already.
      list[list.length - 1] = { ...last, content: { ...last.content, text: last.content.text + update.content.text } };
      return;
    }
    list.push(update);
  }

  /** updates returns a session's updates in order (empty when unknown). */
  updates(sessionId: string): readonly acp.SessionUpdate[] {
    return this.bySession.get(sessionId) ?? [];
  }

  /** reset forgets a session's updates (before a session/load replays them). */
  reset(sessionId: string): void {
    this.bySession.delete(sessionId);
  }
}

function canMerge(a: acp.SessionUpdate & { messageId?: string | null }, b: acp.SessionUpdate & { messageId?: string | null }): boolean {
  // User messages are whole prompts: two in a row (a failed turn) stay two.
  if (a.sessionUpdate === "user_message_chunk") return false;
  return a.sessionUpdate === b.sessionUpdate && (a.messageId ?? null) === (b.messageId ?? null) && !a._meta && !b._meta;
}
