// Small pure formatting helpers: token counts, costs, line diffs, paths.

import type { Usage } from "./model";

/** tokens prints a token count compactly: 950, 12.3k, 1.05M. */
export function tokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${trim(n / 1000)}k`;
  return `${trim(n / 1_000_000)}M`;
}

function trim(x: number): string {
  const digits = x < 10 ? 2 : x < 100 ? 1 : 0;
  return String(Number(x.toFixed(digits)));
}

/** money prints a cost: "$0.0123" for USD, "3.5 credits" otherwise. */
export function money(amount: number, currency: string): string {
  const digits = amount !== 0 && Math.abs(amount) < 0.1 ? 4 : 2;
  if (currency.toUpperCase() === "USD") return `$${amount.toFixed(digits)}`;
  return `${Number(amount.toFixed(digits))} ${currency}`;
}

/** usageText is the usage indicator's text: "12.3k / 200k tokens · $0.01". */
export function usageText(u: Usage): string {
  const base = `${tokens(u.used)} / ${tokens(u.size)} tokens`;
  return u.cost ? `${base} · ${money(u.cost.amount, u.cost.currency)}` : base;
}

/** usageFraction is the share of the context window used, clamped to [0, 1]. */
export function usageFraction(u: Usage): number {
  if (!u.size) return 0;
  return Math.min(1, Math.max(0, u.used / u.size));
}

/** DiffLine is one line of a compact diff view. */
export interface DiffLine {
  op: "add" | "del" | "ctx" | "gap";
  text: string;
}

/** Above this many changed lines (old × new) the diff is shown as remove-all/add-all. */
const MAX_LCS_CELLS = 4_000_000;

/**
 * lineDiff compares two texts line by line (common prefix and suffix
 * trimmed, an LCS on the rest) and returns the changes with `context`
 * unchanged lines around each; longer unchanged runs become one "gap" line.
 */
export function lineDiff(oldText: string | null | undefined, newText: string, context = 2): DiffLine[] {
  const a = splitLines(oldText ?? "");
  const b = splitLines(newText);
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;
  const mid = diffMiddle(a.slice(pre, a.length - suf), b.slice(pre, b.length - suf));
  const all: DiffLine[] = [
    ...a.slice(0, pre).map((text): DiffLine => ({ op: "ctx", text })),
    ...mid,
    ...a.slice(a.length - suf).map((text): DiffLine => ({ op: "ctx", text })),
  ];
  return collapse(all, context);
}

function splitLines(s: string): string[] {
  if (s === "") return [];
  const lines = s.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** diffMiddle is a classic LCS table walk, bounded by MAX_LCS_CELLS. */
function diffMiddle(a: string[], b: string[]): DiffLine[] {
  if (a.length * b.length > MAX_LCS_CELLS) {
    return [...a.map((text): DiffLine => ({ op: "del", text })), ...b.map((text): DiffLine => ({ op: "add", text }))];
  }
  const w = b.length + 1;
  const lcs = new Uint32Array((a.length + 1) * w);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i * w + j] = a[i] === b[j] ? lcs[(i + 1) * w + j + 1] + 1 : Math.max(lcs[(i + 1) * w + j], lcs[i * w + j + 1]);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      out.push({ op: "ctx", text: a[i++] });
      j++;
    } else if (i < a.length && (j === b.length || lcs[(i + 1) * w + j] >= lcs[i * w + j + 1])) {
      out.push({ op: "del", text: a[i++] }); // removals before additions, as in unified diffs
    } else {
      out.push({ op: "add", text: b[j++] });
    }
  }
  return out;
}

/** collapse keeps `context` unchanged lines around changes and folds the rest into gaps. */
function collapse(lines: DiffLine[], context: number): DiffLine[] {
  const keep = lines.map(() => false);
  lines.forEach((l, idx) => {
    if (l.op === "ctx") return;
    for (let k = Math.max(0, idx - context); k <= Math.min(lines.length - 1, idx + context); k++) keep[k] = true;
  });
  const out: DiffLine[] = [];
  let skipped = 0;
  lines.forEach((l, idx) => {
    if (keep[idx]) {
      if (skipped) out.push({ op: "gap", text: `${skipped} unchanged line${skipped === 1 ? "" : "s"}` });
      skipped = 0;
      out.push(l);
    } else {
      skipped++;
    }
  });
  if (skipped && out.length) out.push({ op: "gap", text: `${skipped} unchanged line${skipped === 1 ? "" : "s"}` });
  return out;
}

/** relativePath shows p relative to root when it is inside it. */
export function relativePath(p: string, root: string): string {
  if (!root) return p;
  const r = root.endsWith("/") ? root : `${root}/`;
  return p.startsWith(r) ? p.slice(r.length) : p;
}

/** when prints an ISO time as a short local date and time. */
export function when(iso: string | null | undefined): string {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  return d.toLocaleString(undefined, { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
}
