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

/** MessagePart is a piece of a user message: plain text, or a fenced code block. */
export interface MessagePart {
  kind: "text" | "code";
  text: string;
  /** The fence's language (code parts), "" when none. */
  lang?: string;
}

/**
 * splitFences cuts a user message into plain text and ``` / ~~~ fenced code
 * blocks (an unclosed fence runs to the end), so the code is shown as code
 * and the rest as the user typed it.
 */
export function splitFences(text: string): MessagePart[] {
  const parts: MessagePart[] = [];
  const lines = text.split("\n");
  let buf: string[] = [];
  let fence: { mark: string; lang: string } | null = null;
  const flush = (kind: "text" | "code", lang?: string) => {
    const t = buf.join("\n");
    buf = [];
    if (kind === "code") parts.push({ kind, text: t, lang: lang ?? "" });
    else if (t.trim()) parts.push({ kind, text: t.replace(/^\n+|\n+$/g, "") });
  };
  for (const line of lines) {
    if (!fence) {
      const m = /^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)[^`]*$/.exec(line);
      if (m) {
        flush("text");
        fence = { mark: m[1], lang: m[2] };
        continue;
      }
    } else if (new RegExp(`^ {0,3}${fence.mark[0] === "`" ? "`" : "~"}{${fence.mark.length},}\\s*$`).test(line)) {
      flush("code", fence.lang);
      fence = null;
      continue;
    }
    buf.push(line);
  }
  if (fence) flush("code", fence.lang);
  else flush("text");
  return parts;
}

/**
 * codeSpans cuts a label into plain text and `inline code` spans (the
 * backticks dropped); a lone backtick stays out too, so no label shows raw
 * backticks.
 */
export function codeSpans(label: string): { text: string; code: boolean }[] {
  const out: { text: string; code: boolean }[] = [];
  const re = /(`+)([^`]+?)\1(?!`)/g;
  let at = 0;
  for (let m = re.exec(label); m; m = re.exec(label)) {
    if (m.index > at) out.push({ text: label.slice(at, m.index).replace(/`/g, ""), code: false });
    out.push({ text: m[2].trim(), code: true });
    at = m.index + m[0].length;
  }
  if (at < label.length) out.push({ text: label.slice(at).replace(/`/g, ""), code: false });
  return out.filter((p) => p.text !== "");
}

/**
 * commandEnd reads how a shell command ended from its tool output (the
 * text companion sends when no terminal shows it, as in a replay): "exit
 * code N", "killed by signal S" or "killed: why"; null when it says none.
 */
export function commandEnd(output: string): string | null {
  const m = /(?:^|\n)(?:Exit code: (-?\d+)|The command was killed by signal (\S+?)\.|The command was killed: (.+?)\.)\s*(?:\n|$)/.exec(output);
  if (!m) return null;
  if (m[1] !== undefined) return `exit code ${m[1]}`;
  if (m[2] !== undefined) return `killed by signal ${m[2]}`;
  return `killed: ${m[3]}`;
}
