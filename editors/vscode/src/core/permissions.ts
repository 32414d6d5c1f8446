// Permission requests (session/request_permission). An edit (a tool call
// whose content has a diff) opens the editor's diff view: the user reviews
// and may change the proposal, then accepts or rejects there (or on the chat
// card). Every other kind is a card in the chat with the request's options.
// Accepting an edit hands the user's final text back to the agent as
// `_meta.companion.modifiedContent` when it differs from the proposal; a
// note the user wrote with a choice (a plan's "Keep planning") goes as
// `_meta.companion.message`.

import type * as acp from "@agentclientprotocol/sdk";
import type { DiffReview, Editor } from "./editor";

type Answer = { optionId: string | null; message?: string };

interface Pending {
  requestId: string;
  sessionId: string;
  request: acp.RequestPermissionRequest;
  inDiffEditor: boolean;
  review?: DiffReview;
  answer: (a: Answer) => void;
}

/** The diff content of an edit tool call, if it is one. */
export function editDiff(toolCall: acp.ToolCallUpdate): (acp.Diff & { type: "diff" }) | undefined {
  return toolCall.content?.find((c): c is acp.Diff & { type: "diff" } => c.type === "diff");
}

/** pickOption returns the first option of the given kinds, in order of preference. */
export function pickOption(options: acp.PermissionOption[], kinds: acp.PermissionOptionKind[]): string | null {
  for (const kind of kinds) {
    const o = options.find((x) => x.kind === kind);
    if (o) return o.optionId;
  }
  return null;
}

/** Permissions routes permission requests to diff editors and chat cards. */
export class Permissions {
  private readonly pending = new Map<string, Pending>();
  /** The user's refusals by tool call id: what a later "failed" update of that call really means. */
  private readonly refused = new Map<string, "rejected" | "cancelled">();
  private next = 1;

  constructor(private readonly editor: Editor) {}

  /** request answers one session/request_permission; signal aborts when the agent withdraws it. */
  async request(req: acp.RequestPermissionRequest, signal: AbortSignal): Promise<acp.RequestPermissionResponse> {
    const requestId = `perm-${this.next++}`;
    const diff = editDiff(req.toolCall);
    const review = diff ? await this.openReview(req, diff) : undefined;
    let answer!: (a: Answer) => void;
    const answered = new Promise<Answer>((resolve) => (answer = resolve));
    const p: Pending = { requestId, sessionId: req.sessionId, request: req, inDiffEditor: !!review, review, answer };
    this.pending.set(requestId, p);
    this.editor.post(this.cardFor(p));
    const onAbort = () => answer({ optionId: null });
    if (signal.aborted) onAbort();
    signal.addEventListener("abort", onAbort);
    review?.decision.then((d) => answer({ optionId: pickOption(req.options, d === "accept" ? ["allow_once", "allow_always"] : ["reject_once", "reject_always"]) }));
    try {
      const { optionId, message } = await answered;
      const kind = req.options.find((o) => o.optionId === optionId)?.kind;
      if (optionId === null) this.remember(req.toolCall.toolCallId, "cancelled");
      else if (kind === "reject_once" || kind === "reject_always") this.remember(req.toolCall.toolCallId, "rejected");
      return respond(req.options, optionId, diff, review, message);
    } finally {
      signal.removeEventListener("abort", onAbort);
      this.pending.delete(requestId);
      this.editor.post({ type: "permissionDone", requestId, optionId: (await answered).optionId });
      await review?.close();
    }
  }

  private async openReview(req: acp.RequestPermissionRequest, diff: acp.Diff): Promise<DiffReview | undefined> {
    try {
      const name = diff.path.split(/[\\/]/).pop() ?? diff.path;
      return await this.editor.openDiff({ path: diff.path, oldText: diff.oldText ?? null, newText: diff.newText, title: `${name} ↔ companion proposal` });
    } catch (err) {
      // The card still works when the diff editor cannot open.
      this.editor.log(`cannot open the diff for ${diff.path}: ${String(err)}`);
      return undefined;
    }
  }

  private cardFor(p: Pending) {
    return {
      type: "permission" as const,
      requestId: p.requestId,
      sessionId: p.sessionId,
      toolCall: p.request.toolCall,
      options: p.request.options,
      inDiffEditor: p.inDiffEditor,
    };
  }

  /** answer handles a card's choice (optionId null: dismissed), with the user's note if any. */
  answer(requestId: string, optionId: string | null, message?: string): void {
    this.pending.get(requestId)?.answer({ optionId, message: message?.trim() || undefined });
  }

  /** review brings an open request's diff editor to the front, with the keyboard; false when it has none. */
  async review(requestId: string): Promise<boolean> {
    const review = this.pending.get(requestId)?.review;
    if (!review) return false;
    await review.show();
    return true;
  }

  /** cancelSession answers every open request of a session "cancelled" (ACP requires it on session/cancel). */
  cancelSession(sessionId: string): void {
    for (const p of this.pending.values()) if (p.sessionId === sessionId) p.answer({ optionId: null });
  }

  /** cancelAll answers every open request "cancelled" (the agent went away). */
  cancelAll(): void {
    for (const p of this.pending.values()) p.answer({ optionId: null });
  }

  /** outcome is "rejected" / "cancelled" when the user refused this tool call's request. */
  outcome(toolCallId: string): "rejected" | "cancelled" | undefined {
    return this.refused.get(toolCallId);
  }

  private remember(toolCallId: string, outcome: "rejected" | "cancelled"): void {
    this.refused.set(toolCallId, outcome);
    if (this.refused.size > 500) this.refused.delete(this.refused.keys().next().value!);
  }

  /** cards returns a session's open requests as cards, for a webview shown again. */
  cards(sessionId: string) {
    return [...this.pending.values()].filter((p) => p.sessionId === sessionId).map((p) => this.cardFor(p));
  }
}

/**
 * respond builds the answer. An allowed edit reviewed in the diff editor
 * carries the user's final text when they changed the proposal; a note the
 * user wrote with the choice goes along as the message.
 */
function respond(
  options: acp.PermissionOption[],
  optionId: string | null,
  diff: acp.Diff | undefined,
  review: DiffReview | undefined,
  message?: string,
): acp.RequestPermissionResponse {
  if (optionId === null) return { outcome: { outcome: "cancelled" } };
  const outcome: acp.RequestPermissionOutcome = { outcome: "selected", optionId };
  const ours: Record<string, string> = {};
  if (message) ours.message = message;
  const kind = options.find((o) => o.optionId === optionId)?.kind;
  const allowed = kind === "allow_once" || kind === "allow_always";
  if (allowed && diff && review) {
    const finalText = review.currentText();
    if (finalText !== diff.newText) ours.modifiedContent = finalText;
  }
  return Object.keys(ours).length ? { outcome, _meta: { companion: ours } } : { outcome };
}
