// What the prompt box completes, worked out from its text and cursor.
// Pure (no DOM) so the unit tests check it directly.

import type * as acp from "@agentclientprotocol/sdk";

/** Trigger is the token being completed: a slash command or an @ mention. */
export interface Trigger {
  mode: "slash" | "mention";
  /** query is the text typed after the "/" or "@". */
  query: string;
  /** start and end delimit the token (with its "/" or "@") in the text. */
  start: number;
  end: number;
}

/**
 * findTrigger returns what to complete at the cursor, or null. A slash
 * command completes only as the first word of the prompt; a mention is an
 * "@" at the start or after whitespace, up to the cursor, with no space.
 */
export function findTrigger(text: string, cursor: number): Trigger | null {
  const before = text.slice(0, cursor);
  const slash = /^\/(\S*)$/.exec(before);
  if (slash) return { mode: "slash", query: slash[1], start: 0, end: tokenEnd(text, cursor) };
  const at = /(^|\s)@([^\s@]*)$/.exec(before);
  if (at) {
    const start = before.length - at[2].length - 1;
    return { mode: "mention", query: at[2], start, end: tokenEnd(text, cursor) };
  }
  return null;
}

/** tokenEnd is where the word under the cursor ends. */
function tokenEnd(text: string, cursor: number): number {
  const rest = /^\S*/.exec(text.slice(cursor));
  return cursor + (rest ? rest[0].length : 0);
}

/** MIN_DESCRIPTION_QUERY: shorter queries match names only (one letter is in every description). */
const MIN_DESCRIPTION_QUERY = 3;

/**
 * filterCommands returns the commands matching query: name prefixes first,
 * then names containing it, then (for queries of 3+ letters) descriptions
 * containing it; case-insensitive.
 */
export function filterCommands(commands: acp.AvailableCommand[], query: string): acp.AvailableCommand[] {
  const q = query.toLowerCase();
  const rank = (c: acp.AvailableCommand): number => {
    const name = c.name.toLowerCase();
    if (name.startsWith(q)) return 0;
    if (name.includes(q)) return 1;
    if (q.length >= MIN_DESCRIPTION_QUERY && c.description.toLowerCase().includes(q)) return 2;
    return 3;
  };
  return commands
    .map((c, i) => ({ c, r: rank(c), i }))
    .filter((x) => x.r < 3)
    .sort((a, b) => a.r - b.r || a.i - b.i)
    .map((x) => x.c);
}

/** replaceToken puts insert in place of the trigger's token; returns the text and the new cursor. */
export function replaceToken(text: string, t: Trigger, insert: string): { text: string; cursor: number } {
  const after = text.slice(t.end);
  const sep = after.startsWith(" ") ? "" : " ";
  const next = text.slice(0, t.start) + insert + sep + after;
  return { text: next, cursor: t.start + insert.length + 1 };
}

/** moveSelection steps a list selection by delta, wrapping around. */
export function moveSelection(index: number, delta: number, length: number): number {
  if (length === 0) return 0;
  return (((index + delta) % length) + length) % length;
}
