// Everything around the transcript: header (status, title, history, new
// session), config pickers, usage indicator, banner, history list and plan.

import type * as acp from "@agentclientprotocol/sdk";
import { byId, h, icon, setChildren } from "../dom";
import { relativePath, usageFraction, usageText, when } from "../format";
import type { ViewState } from "../model";
import type { FromWebview } from "../protocol";

/** ChromeHandlers are the user actions the chrome reports to the app. */
export interface ChromeHandlers {
  post(msg: FromWebview): void;
  /** pick records a picker choice locally (optimistic) before the agent confirms. */
  pick(configId: string, value: string): void;
  /** dismiss hides the banner. */
  dismiss(): void;
}

/** PICKER_IDS gives the well-known config categories their stable element ids. */
const PICKER_IDS: Record<string, string> = { mode: "mode-picker", model: "model-picker", thought_level: "thought-picker" };

/** Chrome renders the non-transcript parts of the view. */
export class Chrome {
  #historyOpen = false;
  /** #rendered is the state.chrome last drawn. */
  #rendered = -1;
  /** #keys remembers what lists were drawn from, so they are rebuilt (losing focus) only on change. */
  #keys = { history: "", plan: "" };
  /** #focusHistory moves the focus to the first entry once the list arrives (opened by keyboard or click). */
  #focusHistory = false;

  constructor(private readonly root: HTMLElement, private readonly on: ChromeHandlers) {
    byId(root, "new-session").addEventListener("click", () => on.post({ type: "newSession" }));
    byId(root, "history-toggle").addEventListener("click", () => this.#toggleHistory());
    byId(root, "history").addEventListener("keydown", (e) => {
      if (e.key !== "Escape") return;
      this.#toggleHistory();
      byId(root, "history-toggle").focus();
    });
  }

  /** render redraws the chrome from the model when it changed (state.chrome moved). */
  render(s: ViewState): void {
    if (s.chrome === this.#rendered) return;
    this.#rendered = s.chrome;
    this.root.dataset.turn = s.turn;
    this.root.dataset.sessionId = s.sessionId ?? "";
    this.#status(s);
    byId(this.root, "session-title").textContent = s.title || (s.sessionId ? "New chat" : "Companion");
    this.#pickers(s);
    this.#usage(s);
    this.#banner(s);
    this.#promptError(s);
    this.#history(s);
    this.#plan(s.plan);
  }

  #status(s: ViewState): void {
    const el = byId(this.root, "status");
    const state = s.status?.state ?? "starting";
    el.dataset.state = state;
    const agent = s.status?.agent ? `${s.status.agent.name}${s.status.agent.version ? ` ${s.status.agent.version}` : ""}` : "companion";
    el.title = `${agent}: ${state}`;
    el.setAttribute("aria-label", `Agent ${state}`);
  }

  #pickers(s: ViewState): void {
    const box = byId(this.root, "pickers");
    const selects = s.configOptions.filter((o) => o.type === "select").map((o) => configPicker(o, this.on));
    if (!s.configOptions.some((o) => o.category === "mode") && s.modes) selects.unshift(modePicker(s.modes, this.on));
    if (sameSelects(box, selects)) return; // keep focus and an open dropdown
    setChildren(box, ...selects);
  }

  #usage(s: ViewState): void {
    const el = byId(this.root, "usage");
    el.hidden = !s.usage;
    if (!s.usage) return;
    el.dataset.used = String(s.usage.used);
    el.dataset.size = String(s.usage.size);
    const pct = Math.round(usageFraction(s.usage) * 100);
    el.title = `Context: ${s.usage.used.toLocaleString()} of ${s.usage.size.toLocaleString()} tokens (${pct}%)`;
    byId(el, "usage-text").textContent = usageText(s.usage);
    const bar = byId(el, "usage-fill");
    bar.style.width = `${Math.max(2, pct)}%`; // CSSOM: allowed by the CSP, unlike style attributes
    bar.dataset.level = pct >= 90 ? "high" : pct >= 70 ? "medium" : "low";
  }

  /** #promptError says, beside the box, why the prompt in it was not sent. */
  #promptError(s: ViewState): void {
    const el = byId(this.root, "prompt-error");
    el.hidden = !s.promptError;
    el.textContent = s.promptError ? `Not sent: ${s.promptError}` : "";
  }

  #banner(s: ViewState): void {
    const el = byId(this.root, "banner");
    el.hidden = !s.banner;
    if (!s.banner) return setChildren(el);
    el.dataset.kind = s.banner.kind;
    el.setAttribute("role", s.banner.kind === "error" ? "alert" : "status");
    const action = s.banner.restart
      ? h("button", { type: "button", class: "banner-action", id: "restart-agent" }, "Restart agent")
      : h("button", { type: "button", class: "icon-button banner-dismiss", "aria-label": "Dismiss" }, icon("close"));
    action.addEventListener("click", () => (s.banner?.restart ? this.on.post({ type: "restartAgent" }) : this.on.dismiss()));
    setChildren(el, h("span", { class: "banner-text" }, s.banner.text), action);
  }

  #toggleHistory(): void {
    this.#historyOpen = !this.#historyOpen;
    this.#focusHistory = this.#historyOpen && document.activeElement === byId(this.root, "history-toggle");
    byId(this.root, "history-toggle").setAttribute("aria-expanded", String(this.#historyOpen));
    byId(this.root, "history").hidden = !this.#historyOpen;
    if (this.#historyOpen) this.on.post({ type: "listSessions" });
  }

  #history(s: ViewState): void {
    const list = byId(this.root, "history-list");
    const key = JSON.stringify([s.sessions, s.sessionsError, s.sessionId]);
    if (key !== this.#keys.history) {
      this.#keys.history = key;
      this.#fillHistory(list, s);
    }
    if (this.#focusHistory && s.sessions) {
      this.#focusHistory = false;
      list.querySelector<HTMLButtonElement>("button.history-entry")?.focus();
    }
  }

  #fillHistory(list: HTMLElement, s: ViewState): void {
    if (s.sessionsError) return setChildren(list, h("li", { class: "history-empty" }, `Could not list sessions: ${s.sessionsError}`));
    if (!s.sessions) return setChildren(list, h("li", { class: "history-empty" }, "Loading…"));
    if (!s.sessions.length) return setChildren(list, h("li", { class: "history-empty" }, "No earlier sessions."));
    setChildren(list, ...s.sessions.map((x) => {
      const b = h(
        "button",
        { type: "button", class: "history-entry", "data-session-id": x.sessionId, "aria-current": x.sessionId === s.sessionId ? "true" : null },
        h("span", { class: "history-title" }, x.title || "New chat"),
        h("span", { class: "history-meta" }, [when(x.updatedAt), relativePath(x.cwd, "")].filter(Boolean).join(" · ")),
      );
      b.addEventListener("click", () => {
        this.on.post({ type: "loadSession", sessionId: x.sessionId });
        this.#toggleHistory();
      });
      return h("li", {}, b);
    }));
  }

  #plan(entries: acp.PlanEntry[]): void {
    const key = JSON.stringify(entries);
    if (key === this.#keys.plan) return;
    this.#keys.plan = key;
    const el = byId(this.root, "plan");
    el.hidden = entries.length === 0;
    const done = entries.filter((e) => e.status === "completed").length;
    byId(el, "plan-count").textContent = `${done}/${entries.length}`;
    setChildren(byId(el, "plan-list"), ...entries.map(planEntry));
  }
}

const PLAN_MARKS: Record<string, string> = { pending: "○", in_progress: "◐", completed: "✓" };

function planEntry(e: acp.PlanEntry): HTMLElement {
  return h(
    "li",
    { class: "plan-entry", "data-status": e.status, "data-priority": e.priority, "aria-label": `${e.content} (${e.status.replace("_", " ")})` },
    h("span", { class: "plan-mark", "aria-hidden": "true" }, PLAN_MARKS[e.status] ?? "○"),
    h("span", { class: "plan-text" }, e.content),
  );
}

type SelectOption = Extract<acp.SessionConfigOption, { type: "select" }>;

function configPicker(o: SelectOption, on: ChromeHandlers): HTMLSelectElement {
  const id = o.category ? PICKER_IDS[o.category] : undefined;
  const sel = h("select", { class: "config-picker", id: id ?? null, "data-config-id": o.id, "aria-label": o.name, title: o.description ?? o.name });
  for (const opt of o.options) {
    if ("group" in opt) {
      sel.append(h("optgroup", { label: opt.name }, ...opt.options.map((v) => h("option", { value: v.value, title: v.description ?? null }, v.name))));
    } else {
      sel.append(h("option", { value: opt.value, title: opt.description ?? null }, opt.name));
    }
  }
  sel.value = o.currentValue;
  sel.addEventListener("change", () => {
    on.pick(o.id, sel.value);
    on.post({ type: "setConfigOption", configId: o.id, value: sel.value });
  });
  return sel;
}

/** modePicker is the fallback for agents with legacy modes but no mode config option. */
function modePicker(m: acp.SessionModeState, on: ChromeHandlers): HTMLSelectElement {
  const sel = h("select", { class: "config-picker", id: "mode-picker", "data-config-id": "", "aria-label": "Mode" }, ...m.availableModes.map((x) => h("option", { value: x.id, title: x.description ?? null }, x.name)));
  sel.value = m.currentModeId;
  sel.addEventListener("change", () => on.post({ type: "setMode", modeId: sel.value }));
  return sel;
}

/** sameSelects tells whether the rendered pickers already show the same options and values. */
function sameSelects(box: HTMLElement, next: HTMLSelectElement[]): boolean {
  const cur = [...box.querySelectorAll("select")];
  if (cur.length !== next.length) return false;
  return cur.every((c, i) => c.outerHTML === next[i].outerHTML && c.value === next[i].value);
}
