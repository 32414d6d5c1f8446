// The message list. Items are only ever appended (or all dropped when a
// session starts), so the list keeps one element per item id and redraws an
// item only when its rev changed: a streaming answer re-renders one message.

import { h } from "../dom";
import type { Item, ViewState } from "../model";
import { renderPermission, renderSystem, renderText, renderUser, type RenderContext } from "./items";
import { linkLocation } from "./links";
import { renderTool } from "./toolcard";

interface Rendered {
  el: HTMLElement;
  rev: number;
}

/** Transcript renders state.items into the #messages list. */
export class Transcript {
  #rendered = new Map<string, Rendered>();
  #empty: HTMLElement;

  constructor(private readonly list: HTMLElement, private readonly ctx: () => RenderContext) {
    this.#empty = h("div", { class: "empty-hint" }, "Ask companion to explain, change or run something. Type / for commands, @ to mention a file.");
    list.addEventListener("click", (e) => this.#onClick(e));
  }

  /** render brings the list in line with the model; returns whether anything changed. */
  render(state: ViewState): boolean {
    const ctx = this.ctx();
    let changed = this.#dropStale(state.items);
    for (const it of state.items) {
      let r = this.#rendered.get(it.id);
      if (r && r.rev === it.rev) continue;
      if (!r) {
        r = { el: h("div", { "data-item-id": it.id }), rev: -1 };
        this.#rendered.set(it.id, r);
        this.list.append(r.el);
      }
      renderItem(r.el, it, ctx);
      r.rev = it.rev;
      changed = true;
    }
    this.#toggleEmpty(state.items.length === 0);
    return changed;
  }

  /** #dropStale removes elements of items the model no longer has (after a session reset). */
  #dropStale(items: Item[]): boolean {
    if (this.#rendered.size === 0) return false;
    const ids = new Set(items.map((it) => it.id));
    let dropped = false;
    for (const [id, r] of this.#rendered) {
      if (ids.has(id)) continue;
      r.el.remove();
      this.#rendered.delete(id);
      dropped = true;
    }
    return dropped;
  }

  #toggleEmpty(empty: boolean): void {
    if (empty && !this.#empty.isConnected) this.list.append(this.#empty);
    if (!empty) this.#empty.remove();
  }

  /** #onClick sends links to workspace files to the editor instead of navigating. */
  #onClick(e: MouseEvent): void {
    const a = (e.target as Element | null)?.closest?.("a");
    if (!a || a.classList.contains("tool-location")) return;
    const href = a.getAttribute("href") ?? "";
    const loc = linkLocation(href, this.ctx().cwd);
    if (!loc) return;
    e.preventDefault();
    this.ctx().post({ type: "openLocation", path: loc.path, line: loc.line });
  }
}

function renderItem(el: HTMLElement, it: Item, ctx: RenderContext): void {
  switch (it.kind) {
    case "user": return renderUser(el, it, ctx);
    case "agent":
    case "thought": return renderText(el, it);
    case "tool": return renderTool(el, it, ctx);
    case "permission": return renderPermission(el, it, ctx);
    case "system": return renderSystem(el, it);
  }
}
