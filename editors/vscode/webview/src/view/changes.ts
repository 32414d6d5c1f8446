// The "changed this turn" list above the prompt box (changes.ts has the
// model): each file the last turn edited with its +/− counts, a Diff link
// (VS Code's diff of the file before the turn against the file now), Keep
// and Revert; Keep all and Revert all for the whole change.

import { byId, h, icon, setChildren } from "../dom";
import { lineDiff, relativePath } from "../format";
import { turnChanges, type FileChange } from "../changes";
import type { ViewState } from "../model";

/** ChangesHandlers are the user's choices, reported to the app. */
export interface ChangesHandlers {
  show(file: FileChange): void;
  decide(path: string | null, d: "kept" | "reverted"): void;
}

/** ChangesView renders #changes from the model. */
export class ChangesView {
  #key = "";

  constructor(private readonly root: HTMLElement, private readonly on: ChangesHandlers) {}

  render(s: ViewState): void {
    const files = turnChanges(s);
    const key = JSON.stringify([s.cwd, files.map((f) => [f.path, f.decided, f.newText.length])]);
    if (key === this.#key) return;
    this.#key = key;
    const el = byId(this.root, "changes");
    el.hidden = files.length === 0;
    if (!files.length) return setChildren(el);
    const open = files.filter((f) => !f.decided).length;
    const head = h(
      "div",
      { class: "changes-head" },
      h("span", { class: "changes-title" }, `Changed this turn (${files.length} file${files.length === 1 ? "" : "s"})`),
      button("Keep all", "changes-keep-all secondary", `Keep all ${open} changes`, () => this.on.decide(null, "kept")),
      button("Revert all", "changes-revert-all secondary", `Put all ${open} files back as they were before the turn`, () => this.on.decide(null, "reverted")),
    );
    setChildren(el, head, h("ul", { class: "changes-list" }, ...files.map((f) => this.#row(f, s.cwd))));
  }

  #row(f: FileChange, cwd: string): HTMLElement {
    const lines = lineDiff(f.oldText, f.newText);
    const adds = lines.filter((l) => l.op === "add").length;
    const dels = lines.filter((l) => l.op === "del").length;
    const name = relativePath(f.path, cwd);
    const link = h("a", { href: "#", class: "change-diff", title: `Show what the turn changed in ${name}` }, icon("diff"), ` ${name}`);
    link.addEventListener("click", (e) => {
      e.preventDefault();
      this.on.show(f);
    });
    const actions = f.decided
      ? h("span", { class: "change-decided" }, f.decided)
      : h("span", { class: "change-actions" },
          button("Keep", "change-keep secondary", `Keep the changes to ${name}`, () => this.on.decide(f.path, "kept")),
          button("Revert", "change-revert secondary", `Put ${name} back as it was before the turn`, () => this.on.decide(f.path, "reverted")));
    return h(
      "li",
      { class: "change", "data-path": f.path, "data-decided": f.decided ?? null },
      link,
      f.oldText === null ? h("span", { class: "diff-new" }, "new") : null,
      h("span", { class: "diff-stat-add" }, `+${adds}`),
      h("span", { class: "diff-stat-del" }, `−${dels}`),
      actions,
    );
  }
}

function button(label: string, cls: string, title: string, onClick: () => void): HTMLButtonElement {
  const b = h("button", { type: "button", class: cls, title }, label);
  b.addEventListener("click", onClick);
  return b;
}
