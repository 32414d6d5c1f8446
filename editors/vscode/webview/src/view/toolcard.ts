// Tool call cards: kind icon and label, title, status, locations (links
// that open the file at the line), and content (text, compact diffs,
// terminals).

import type * as acp from "@agentclientprotocol/sdk";
import { h, icon, setChildren } from "../dom";
import { commandEnd, lineDiff, relativePath } from "../format";
import type { ToolItem, ToolView } from "../model";
import { fillMarkdown, type RenderContext } from "./items";

/** KINDS gives each ACP tool kind a codicon and a label. */
const KINDS: Record<string, { icon: string; label: string }> = {
  read: { icon: "file", label: "Read" },
  edit: { icon: "edit", label: "Edit" },
  delete: { icon: "trash", label: "Delete" },
  move: { icon: "arrow-swap", label: "Move" },
  search: { icon: "search", label: "Search" },
  execute: { icon: "terminal", label: "Run" },
  think: { icon: "lightbulb", label: "Think" },
  fetch: { icon: "globe", label: "Fetch" },
  switch_mode: { icon: "settings-gear", label: "Mode" },
  other: { icon: "tools", label: "Tool" },
};

const STATUS_TEXT: Record<string, string> = {
  pending: "pending",
  in_progress: "running",
  completed: "done",
  failed: "failed",
  rejected: "rejected",
  cancelled: "cancelled",
  blocked: "blocked",
};

/** MAX_DIFF_LINES bounds the lines a diff card shows. */
const MAX_DIFF_LINES = 300;

/** renderTool fills a tool call card. */
export function renderTool(el: HTMLElement, it: ToolItem, ctx: RenderContext): void {
  const call = it.call;
  const wasOpen = el.querySelector<HTMLDetailsElement>(":scope details.tool-output-wrap")?.open;
  el.className = "tool-call";
  el.dataset.toolCallId = call.toolCallId;
  el.dataset.status = call.status;
  el.dataset.kind = call.kind;
  const kind = KINDS[call.kind] ?? KINDS.other;
  const head = h(
    "div",
    { class: "tool-head" },
    icon(kind.icon, "tool-icon"),
    h("span", { class: "tool-kind" }, kind.label),
    h("span", { class: "tool-title" }, call.title),
    h("span", { class: "tool-status", "data-status": call.status }, STATUS_TEXT[call.status] ?? call.status),
  );
  el.setAttribute("role", "group");
  el.setAttribute("aria-label", `${kind.label}: ${call.title} (${STATUS_TEXT[call.status] ?? call.status})`);
  setChildren(el, head, locations(call, ctx), ...call.content.map((c) => contentView(c, call, ctx, wasOpen)));
}

function locations(call: ToolView, ctx: RenderContext): HTMLElement | null {
  if (!call.locations.length) return null;
  const links = call.locations.map((loc) => {
    const label = relativePath(loc.path, ctx.cwd) + (loc.line ? `:${loc.line}` : "");
    const a = h("a", { href: "#", class: "tool-location", "data-path": loc.path, "data-line": loc.line ?? null, title: `Open ${loc.path}` }, label);
    a.addEventListener("click", (e) => {
      e.preventDefault();
      ctx.post({ type: "openLocation", path: loc.path, line: loc.line ?? null });
    });
    return a;
  });
  return h("div", { class: "tool-locations" }, ...links);
}

function contentView(c: acp.ToolCallContent, call: ToolView, ctx: RenderContext, wasOpen?: boolean): HTMLElement | null {
  switch (c.type) {
    case "diff": return diffView(c, ctx);
    case "terminal": return terminalView(c, call, ctx);
    case "content": return textView(c.content, call, wasOpen);
    default: return null;
  }
}

/** textView shows tool text output; markdown when it carries a fence or a plan, else preformatted. */
function textView(block: acp.ContentBlock, call: ToolView, wasOpen?: boolean): HTMLElement | null {
  if (block.type !== "text" || !block.text) return null;
  let body: HTMLElement;
  if (call.kind === "switch_mode" || /(^|\n)```/.test(block.text)) { // a mode switch carries a plan in markdown
    body = h("div", { class: "markdown tool-output" });
    fillMarkdown(body, block.text);
  } else {
    body = h("pre", { class: "tool-output" }, block.text);
  }
  // What is about to run stays visible; finished output is folded.
  const open = wasOpen ?? (call.status === "pending" || call.status === "failed" || call.status === "blocked");
  const lines = block.text.split("\n").length;
  // A command's end (a replayed one has no terminal to say it) shows folded too.
  const end = call.kind === "execute" && call.status !== "pending" ? commandEnd(block.text) : null;
  const label = call.status === "pending" ? "Details" : `Output (${lines} line${lines === 1 ? "" : "s"})${end ? ` · ${end}` : ""}`;
  return h("details", { class: "tool-output-wrap", open }, h("summary", {}, label), body);
}

function diffView(d: acp.Diff, ctx: RenderContext): HTMLElement {
  const lines = lineDiff(d.oldText, d.newText);
  const adds = lines.filter((l) => l.op === "add").length;
  const dels = lines.filter((l) => l.op === "del").length;
  const shown = lines.slice(0, MAX_DIFF_LINES).map((l) => {
    const sign = l.op === "add" ? "+" : l.op === "del" ? "-" : l.op === "gap" ? "⋯" : " ";
    return h("div", { class: `diff-line diff-${l.op}` }, `${sign} ${l.text}`);
  });
  const more = lines.length > MAX_DIFF_LINES ? h("div", { class: "diff-line diff-gap" }, `⋯ ${lines.length - MAX_DIFF_LINES} more lines`) : null;
  const head = h(
    "div",
    { class: "diff-head" },
    h("span", { class: "diff-path" }, relativePath(d.path, ctx.cwd)),
    d.oldText == null ? h("span", { class: "diff-new" }, "new file") : null,
    h("span", { class: "diff-stat-add" }, `+${adds}`),
    h("span", { class: "diff-stat-del" }, `−${dels}`),
  );
  return h("div", { class: "diff", "data-path": d.path }, head, h("div", { class: "diff-body", role: "region", "aria-label": `Changes to ${d.path}` }, ...shown, more));
}

/** terminalView says where the command runs, links to that terminal, and shows its last lines. */
function terminalView(t: acp.Terminal, call: ToolView, ctx: RenderContext): HTMLElement {
  const out = call.terminalOutput?.[t.terminalId];
  const running = !out?.exit && (call.status === "pending" || call.status === "in_progress");
  const link = h("a", { href: "#", class: "terminal-link", title: "Show the terminal" }, "Show terminal");
  link.addEventListener("click", (e) => {
    e.preventDefault();
    ctx.post({ type: "focusTerminal", terminalId: t.terminalId });
  });
  const head = h(
    "div",
    { class: "terminal-head" },
    icon("terminal"),
    h("span", {}, running ? " Running in a terminal" : " Ran in a terminal"),
    out?.exit ? h("span", { class: "terminal-exit" }, ` · ${out.exit}`) : null,
    " · ",
    link,
  );
  const tail = out?.tail ? h("pre", { class: "terminal-tail", "aria-label": "Last lines of output" }, out.tail) : null;
  return h("div", { class: "tool-terminal", "data-terminal-id": t.terminalId }, head, tail);
}
