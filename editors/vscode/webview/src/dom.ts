// A tiny element builder. The UI never builds HTML strings, except the
// sanitized markdown, so text from the agent cannot turn into markup.

type Attrs = Record<string, string | number | boolean | null | undefined>;
type Child = Node | string | null | undefined | false;

/**
 * h creates an element with attributes (false/null/undefined are left out,
 * true sets an empty attribute) and children (strings become text nodes).
 */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === false || v === null || v === undefined) continue;
    el.setAttribute(k, v === true ? "" : String(v));
  }
  append(el, children);
  return el;
}

/** append adds children to el, skipping empty ones. */
export function append(el: Element, children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    el.append(typeof c === "string" ? document.createTextNode(c) : c);
  }
}

/** setChildren swaps el's children for the given ones. */
export function setChildren(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  append(el, children);
}

/** byId returns the element with id, failing loudly when the page lacks it. */
export function byId<T extends HTMLElement = HTMLElement>(root: ParentNode, id: string): T {
  const el = root.querySelector<T>(`#${id}`);
  if (!el) throw new Error(`webview: #${id} missing`);
  return el;
}

/** icon is a VS Code codicon (the font ships in media/), hidden from screen readers. */
export function icon(name: string, extra = ""): HTMLElement {
  return h("span", { class: `codicon codicon-${name}${extra ? ` ${extra}` : ""}`, "aria-hidden": "true" });
}
