// Session titles as the user reads them: the agent names a session after the
// first line of its first prompt, which can be markdown ("**fix** `parse()`",
// "```ts"). Titles are shown as plain words, one line, bounded; the history
// lists only sessions that got a prompt, and tells equal titles apart.
// Pure, so the rules are unit-tested.

import type { SessionSummary } from "../webviewProtocol";

/** MAX_TITLE_CHARS bounds a shown title. */
export const MAX_TITLE_CHARS = 60;

/**
 * cleanTitle turns a raw title into plain text: markdown syntax (fences,
 * headings, emphasis, inline code, links, images, quotes, list markers)
 * removed, whitespace collapsed, at most MAX_TITLE_CHARS. Empty when nothing
 * readable is left.
 */
export function cleanTitle(raw: string | null | undefined): string {
  if (!raw) return "";
  let s = raw
    .replace(/```[^\n]*\n?/g, " ") // code fence lines (the info string too)
    .replace(/`+([^`]*)`+/g, "$1") // inline code
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1") // images
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1") // links
    .replace(/^\s{0,3}(#{1,6}|>+|[-*+]|\d+[.)])\s+/gm, "") // headings, quotes, list markers
    .replace(/(\*\*|__)(.+?)\1/g, "$2") // bold
    .replace(/(^|[\s(])([*_])(\S(?:.*?\S)?)\2(?=[\s).,!?:;]|$)/g, "$1$3") // italics
    .replace(/~~(.+?)~~/g, "$1") // strikethrough
    .replace(/`/g, "");
  s = s.replace(/\s+/g, " ").trim();
  if (s.length > MAX_TITLE_CHARS) s = `${s.slice(0, MAX_TITLE_CHARS - 1).trimEnd()}…`;
  return s;
}

/**
 * historyEntries prepares the session list for the history: titles
 * cleaned; sessions with no title (no prompt was ever sent) left out unless
 * it is the current one; equal titles numbered ("fix tests (2)"), the oldest
 * keeping the plain title, so no two entries read the same.
 */
export function historyEntries(sessions: SessionSummary[], currentId?: string): SessionSummary[] {
  const kept = sessions
    .map((s) => ({ ...s, title: cleanTitle(s.title) || null }))
    .filter((s) => s.title || s.sessionId === currentId);
  // Seen in the list's order (newest first), counted from the oldest.
  const total = new Map<string, number>();
  for (const s of kept) if (s.title) total.set(s.title, (total.get(s.title) ?? 0) + 1);
  const seen = new Map<string, number>();
  return kept.map((s) => {
    if (!s.title || total.get(s.title) === 1) return s;
    const n = (seen.get(s.title) ?? 0) + 1;
    seen.set(s.title, n);
    const rank = total.get(s.title)! - n + 1; // the oldest is 1
    return rank === 1 ? s : { ...s, title: `${s.title} (${rank})` };
  });
}
