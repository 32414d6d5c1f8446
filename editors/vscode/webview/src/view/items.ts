// Rendering of transcript items other than tool calls (see toolcard.ts).
// Each renderer fills an element created once per item, so a streaming
// message only re-renders its own markdown.

import { h, icon, setChildren } from "../dom";
import { renderMarkdown } from "../markdown";
import type { PermissionItem, SystemItem, TextItem, UserItem } from "../model";
import type { FileMention, FromWebview } from "../protocol";
import { sanitizeToFragment } from "../sanitize";
import { codeSpans, splitFences } from "../format";

/** RenderContext is what item renderers need from the app. */
export interface RenderContext {
  post(msg: FromWebview): void;
  /** answer records a permission answer in the model (and re-renders). */
  answer(requestId: string, optionId: string): void;
  /** rewind asks, confirms or cancels "Rewind to here" on a user message. */
  rewind(action: "ask" | "confirm" | "cancel", itemId: string): void;
  cwd: string;
}

/** fillMarkdown renders markdown text, sanitized, into el. */
export function fillMarkdown(el: Element, text: string): void {
  el.replaceChildren(sanitizeToFragment(renderMarkdown(text)));
}

/** mentionChip is the small label of a mentioned file. */
export function mentionChip(m: FileMention): HTMLElement {
  return h("span", { class: "mention-chip", "data-uri": m.uri, title: m.description ?? m.uri }, `@${m.label}`);
}

/**
 * renderUser fills a user message, with its "Rewind to here" button (shown on
 * hover while #messages has data-rewind="on") and, when asked, the confirmation.
 */
export function renderUser(el: HTMLElement, it: UserItem, ctx: RenderContext): void {
  el.className = "msg msg-user";
  el.dataset.confirming = String(!!it.confirming);
  const mentions = it.mentions.length ? h("div", { class: "user-mentions" }, ...it.mentions.map(mentionChip)) : null;
  const images = it.images?.length
    ? h("div", { class: "user-images" }, ...it.images.map((src, i) => h("img", { class: "user-image", src, alt: `Image ${i + 1}` })))
    : null;
  const rewind = h("button", { type: "button", class: "rewind-action", title: "Rewind to here: restore the files to before this message and edit it again", "aria-label": "Rewind to here" }, icon("discard"), " Rewind to here");
  rewind.addEventListener("click", () => ctx.rewind("ask", it.id));
  const head = h("div", { class: "msg-head" }, h("div", { class: "msg-role" }, "You"), rewind);
  setChildren(el, head, h("div", { class: "user-text" }, ...userParts(it.text)), images, mentions, it.confirming ? rewindConfirm(it, ctx) : null);
}

/** rewindConfirm is the inline confirmation of a rewind. */
function rewindConfirm(it: UserItem, ctx: RenderContext): HTMLElement {
  const yes = h("button", { type: "button", class: "rewind-confirm primary" }, "Rewind");
  const no = h("button", { type: "button", class: "rewind-cancel secondary" }, "Cancel");
  yes.addEventListener("click", () => ctx.rewind("confirm", it.id));
  no.addEventListener("click", () => ctx.rewind("cancel", it.id));
  return h(
    "div",
    { class: "rewind-box", role: "alertdialog", "aria-label": "Rewind to here" },
    h("p", {}, "Rewind to before this message? The files the agent changed since then are restored to how they were, and this message goes back to the prompt box. The conversation so far stays in the history."),
    h("div", { class: "rewind-buttons" }, yes, no),
  );
}

/** userParts shows the user's text as typed, and fenced code blocks as code. */
function userParts(text: string): (HTMLElement | string)[] {
  return splitFences(text).map((p) => {
    if (p.kind === "text") return h("span", { class: "user-plain" }, p.text);
    const body = h("div", { class: "markdown user-code" });
    const fence = "`".repeat(Math.max(3, longestRun(p.text, "`") + 1));
    fillMarkdown(body, `${fence}${p.lang ?? ""}\n${p.text}\n${fence}`);
    return body;
  });
}

function longestRun(s: string, ch: string): number {
  let best = 0;
  let run = 0;
  for (const c of s) {
    run = c === ch ? run + 1 : 0;
    best = Math.max(best, run);
  }
  return best;
}

/** renderText fills an agent message or a thought; only the markdown body changes later. */
export function renderText(el: HTMLElement, it: TextItem): void {
  let body = el.querySelector<HTMLElement>(":scope .markdown");
  if (!body) {
    body = h("div", { class: "markdown" });
    if (it.kind === "thought") {
      el.className = "thought-wrap";
      setChildren(el, h("details", { class: "thought" }, h("summary", {}, h("span", { class: "thought-label" }, "Thinking…")), body));
    } else {
      el.className = "msg msg-agent";
      setChildren(el, body);
    }
  }
  el.dataset.streaming = String(it.streaming);
  el.setAttribute("aria-busy", String(it.streaming)); // screen readers wait for the finished text
  const label = el.querySelector(".thought-label");
  if (label) label.textContent = it.streaming ? "Thinking…" : "Thought";
  fillMarkdown(body, it.text);
}

/**
 * renderPermission fills a permission card, compact for a narrow sidebar:
 * the primary choice (allow this time) as a button, the other options one
 * click away under "More", and for an edit a Review button that brings its
 * diff editor to the front. A mode switch (a plan to approve) shows the
 * plan as markdown and every choice. Keyboard: Enter allows this time, Esc rejects
 * (while the card, or nothing else, has the focus: see permissionKey).
 */
export function renderPermission(el: HTMLElement, it: PermissionItem, ctx: RenderContext): void {
  el.className = "permission";
  el.dataset.requestId = it.requestId;
  el.dataset.state = it.answered ? "answered" : "pending";
  el.dataset.inDiffEditor = String(it.inDiffEditor);
  el.setAttribute("role", "group");
  el.setAttribute("aria-label", `Permission request: ${it.title}`);
  if (it.answered) el.removeAttribute("tabindex");
  else el.tabIndex = 0;
  el.onkeydown = it.answered ? null : (ev) => permissionKey(ev, el, ev.target === el);
  const note = it.inDiffEditor && !it.answered
    ? h("p", { class: "permission-note" }, "The edit is open in the diff editor: change it there if you like, then allow or reject here or in its title bar.")
    : null;
  el.dataset.toolKind = it.toolKind;
  const head = h("div", { class: "permission-head" }, icon(it.plan === undefined ? "shield" : "list-ordered", "permission-icon"), h("span", { class: "permission-title" }, it.title));
  if (it.plan !== undefined) {
    setChildren(el, head, planBody(it), planFooter(it, ctx));
    return;
  }
  setChildren(el, head, note, permissionFooter(it, ctx));
}

/** planBody is a mode switch's plan as markdown: open while it waits, folded once answered. */
function planBody(it: PermissionItem): HTMLElement {
  const body = h("div", { class: "markdown permission-plan" });
  fillMarkdown(body, it.plan ?? "");
  if (!it.answered) return body;
  return h("details", { class: "permission-plan-wrap" }, h("summary", {}, "Plan"), body);
}

/**
 * planFooter answers a mode switch (a plan to approve): every choice as a
 * button, since each starts a different mode, and a note for the agent
 * that goes with a refusal ("Keep planning").
 */
function planFooter(it: PermissionItem, ctx: RenderContext): HTMLElement {
  if (it.answered) return permissionFooter(it, ctx);
  const refusals = it.options.filter((o) => o.kind.startsWith("reject"));
  const note = refusals.length
    ? h("textarea", { class: "permission-plan-note", rows: 2, "aria-label": "A note for the agent",
      placeholder: `A note for the agent, sent with “${refusals[0].name}” (optional)` })
    : null;
  const primary = primaryOption(it.options);
  const buttons = it.options.map((o) => {
    const cls = `permission-option ${o === primary ? "primary" : "secondary"}`;
    const b = h("button", { type: "button", class: cls, "data-option-id": o.optionId, "data-option-kind": o.kind }, ...labelNodes(o.name));
    if (o === primary) b.title = "Enter";
    if (o === refusals[0]) b.dataset.key = "Escape";
    b.addEventListener("click", () => {
      const message = o.kind.startsWith("reject") ? note?.value.trim() : "";
      ctx.post({ type: "permissionResponse", requestId: it.requestId, optionId: o.optionId, ...(message ? { message } : {}) });
      ctx.answer(it.requestId, o.optionId);
    });
    return b;
  });
  return h("div", { class: "permission-plan-answer" }, note, h("div", { class: "permission-options" }, ...buttons));
}

/** primaryOption is the card's main choice: allow this time, else the first allow option. */
function primaryOption(options: PermissionItem["options"]) {
  return options.find((o) => o.kind === "allow_once") ?? options.find((o) => o.kind.startsWith("allow"));
}

function permissionFooter(it: PermissionItem, ctx: RenderContext): HTMLElement {
  if (it.answered) {
    const chosen = it.options.find((o) => o.optionId === it.answered?.optionId);
    return h("p", { class: "permission-answer" }, ...(chosen ? ["Answered: ", ...labelNodes(chosen.name)] : ["Dismissed"]));
  }
  const primary = primaryOption(it.options);
  const reject = it.options.find((o) => o.kind === "reject_once") ?? it.options.find((o) => o.kind.startsWith("reject"));
  const button = (o: PermissionItem["options"][number]) => {
    const cls = `permission-option ${o === primary ? "primary" : "secondary"}`;
    const b = h("button", { type: "button", class: cls, "data-option-id": o.optionId, "data-option-kind": o.kind }, ...labelNodes(o.name));
    if (o === primary) b.title = "Enter";
    if (o === reject) b.dataset.key = "Escape";
    b.addEventListener("click", () => {
      ctx.post({ type: "permissionResponse", requestId: it.requestId, optionId: o.optionId });
      ctx.answer(it.requestId, o.optionId);
    });
    return b;
  };
  const rest = it.options.filter((o) => o !== primary);
  const restBox = h("div", { class: "permission-rest", hidden: "" }, ...rest.map(button));
  const more = rest.length
    ? h("button", { type: "button", class: "permission-more secondary", "aria-expanded": "false", title: "Other choices (Esc rejects)" }, "More", icon("chevron-down"))
    : null;
  more?.addEventListener("click", () => {
    restBox.hidden = !restBox.hidden;
    more.setAttribute("aria-expanded", String(!restBox.hidden));
  });
  const review = it.inDiffEditor ? h("button", { type: "button", class: "permission-review secondary", title: "Show the proposed edit in the diff editor" }, "Review") : null;
  review?.addEventListener("click", () => ctx.post({ type: "reviewDiff", requestId: it.requestId }));
  return h("div", { class: "permission-options" }, review, primary ? button(primary) : null, more, restBox);
}

/**
 * permissionKey answers a pending card from the keyboard: Esc rejects, and
 * Enter allows this time when enter is true (the card itself has the focus,
 * or nothing does; on a focused button Enter presses that button).
 */
export function permissionKey(ev: KeyboardEvent, card: Element, enter: boolean): void {
  if (ev.isComposing || ev.altKey || ev.ctrlKey || ev.metaKey || ev.shiftKey) return;
  const target =
    ev.key === "Escape" ? card.querySelector<HTMLButtonElement>('button.permission-option[data-key="Escape"]')
    : ev.key === "Enter" && enter ? card.querySelector<HTMLButtonElement>("button.permission-option.primary")
    : null;
  if (!target) return;
  ev.preventDefault();
  ev.stopPropagation();
  target.click();
}

/** labelNodes shows an option name the agent sent: `code` as inline code, never raw backticks. */
function labelNodes(name: string): (HTMLElement | string)[] {
  return codeSpans(name).map((p) => (p.code ? h("code", {}, p.text) : p.text));
}

/** renderSystem fills a small system line (notice, compaction, turn end, error). */
export function renderSystem(el: HTMLElement, it: SystemItem): void {
  el.className = "system-line";
  el.dataset.kind = it.sysKind;
  if (it.severity) el.dataset.severity = it.severity;
  el.setAttribute("role", it.sysKind === "error" || it.severity === "error" ? "alert" : "note");
  if (!it.detail) {
    setChildren(el, it.text);
    return;
  }
  const body = h("div", { class: "markdown" });
  fillMarkdown(body, it.detail);
  setChildren(el, h("details", {}, h("summary", {}, it.text), body));
}
