// companion's `_companion/ide/contextUpdate` notification (DESIGN.md,
// "Extension: IDE context over ACP"): what the user sees, in LSP shapes
// (0-based positions). The editor builds an IdeContext; this module caps it
// to the agent's limits and sends it, debounced.

/** The extension notification's method name. */
export const IDE_CONTEXT_METHOD = "_companion/ide/contextUpdate";

/** Limits the agent applies; we cap before sending so nothing is wasted. */
export const MAX_OPEN_FILES = 10;
export const MAX_SELECTED_TEXT_BYTES = 16 * 1024;
export const MAX_DIAGNOSTICS = 200;

/** An LSP position (0-based). */
export interface Position {
  line: number;
  character: number;
}

/** An LSP range. */
export interface Range {
  start: Position;
  end: Position;
}

/** One open file. */
export interface OpenFile {
  uri: string;
  isActive?: boolean;
  /** When it was last focused, ms since the epoch (newest first wins the cap). */
  timestamp: number;
  cursor?: Position;
  selection?: Range;
  selectedText?: string;
}

/** An LSP diagnostic (the subset companion reads). */
export interface Diagnostic {
  range: Range;
  severity?: number;
  message: string;
  source?: string;
  code?: string | number;
}

/** Everything one update carries. */
export interface IdeContext {
  workspaceFolders?: { uri: string; name: string }[];
  openFiles?: OpenFile[];
  diagnostics?: { uri: string; diagnostics: Diagnostic[] }[];
  isTrusted?: boolean;
}

/** The notification's params. */
export interface IdeContextParams extends IdeContext {
  sessionId?: string;
}

/** capContext applies the agent's limits: 10 files, 16 KiB selection, 200 diagnostics. */
export function capContext(ctx: IdeContext): IdeContext {
  const files = [...(ctx.openFiles ?? [])]
    .sort((a, b) => Number(!!b.isActive) - Number(!!a.isActive) || b.timestamp - a.timestamp)
    .slice(0, MAX_OPEN_FILES)
    .map((f) => (f.selectedText === undefined ? f : { ...f, selectedText: capUtf8(f.selectedText, MAX_SELECTED_TEXT_BYTES) }));
  let left = MAX_DIAGNOSTICS;
  const diagnostics: { uri: string; diagnostics: Diagnostic[] }[] = [];
  for (const d of ctx.diagnostics ?? []) {
    if (left <= 0) break;
    const kept = d.diagnostics.slice(0, left);
    left -= kept.length;
    if (kept.length > 0) diagnostics.push({ uri: d.uri, diagnostics: kept });
  }
  return { ...ctx, openFiles: files, diagnostics };
}

/** capUtf8 cuts text to at most maxBytes of UTF-8 without splitting a character. */
export function capUtf8(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length <= maxBytes) return text;
  let end = maxBytes;
  // Back up over continuation bytes (10xxxxxx) so a character is not split.
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString("utf8");
}

/**
 * ContextSender sends the editor context after it settles: each schedule()
 * restarts a timer, so a burst of cursor moves becomes one notification.
 */
export class ContextSender {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastSent = "";

  constructor(
    private readonly read: () => IdeContext,
    private readonly send: (params: IdeContextParams) => Promise<void>,
    private readonly delayMs = 300,
  ) {}

  /** schedule sends the context delayMs after the last call. */
  schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush(false);
    }, this.delayMs);
  }

  /**
   * flush sends now. With force (a new session, a restarted agent) it sends
   * even when nothing changed; otherwise identical contexts are skipped.
   */
  async flush(force: boolean, sessionId?: string): Promise<void> {
    const ctx = capContext(this.read());
    const key = JSON.stringify(ctx);
    if (!force && key === this.lastSent) return;
    this.lastSent = key;
    try {
      await this.send(sessionId ? { sessionId, ...ctx } : ctx);
    } catch {
      // No agent right now: the next session start sends it with force.
      this.lastSent = "";
    }
  }

  /** dispose stops a pending send. */
  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
