// The static layout of the chat view. Element ids are the stable selectors
// listed in SELECTORS.md.

import { h, icon } from "../dom";

/** skeleton builds the view's fixed structure. */
export function skeleton(): DocumentFragment {
  const frag = document.createDocumentFragment();
  frag.append(header(), h("div", { id: "banner", hidden: true }), history(), messages(), plan(), changes(), composer());
  return frag;
}

function header(): HTMLElement {
  return h(
    "header",
    { class: "app-header" },
    h(
      "div",
      { class: "title-row" },
      h("span", { id: "status", class: "status-dot", role: "img", "data-state": "starting", "aria-label": "Agent starting" }),
      h("h1", { id: "session-title", class: "session-title" }, "Companion"),
      h("button", { type: "button", id: "history-toggle", class: "icon-button", "aria-label": "Session history", title: "Session history", "aria-expanded": "false", "aria-controls": "history" }, icon("history")),
      h("button", { type: "button", id: "new-session", class: "icon-button", "aria-label": "New session", title: "New session" }, icon("add")),
    ),
    h(
      "div",
      { class: "toolbar" },
      h("div", { id: "pickers", class: "pickers" }),
      h("div", { id: "usage", class: "usage", hidden: true }, h("span", { id: "usage-text" }), h("span", { class: "usage-bar", "aria-hidden": "true" }, h("span", { id: "usage-fill", class: "usage-fill" }))),
    ),
  );
}

function history(): HTMLElement {
  return h("section", { id: "history", class: "history", hidden: true, "aria-label": "Session history" }, h("h2", {}, "Sessions"), h("ul", { id: "history-list" }));
}

function messages(): HTMLElement {
  return h("div", { id: "messages", class: "messages", role: "log", "aria-live": "polite", "aria-label": "Conversation", tabindex: "0" });
}

function plan(): HTMLElement {
  return h(
    "details",
    { id: "plan", class: "plan", hidden: true, open: true },
    h("summary", {}, "Plan ", h("span", { id: "plan-count", class: "plan-count" })),
    h("ol", { id: "plan-list", class: "plan-list" }),
  );
}

function changes(): HTMLElement {
  return h("section", { id: "changes", class: "changes", hidden: true, "aria-label": "Files changed this turn" });
}

function composer(): HTMLElement {
  return h(
    "div",
    { class: "composer" },
    h("div", { id: "completion", class: "completion", role: "listbox", hidden: true, "aria-label": "Suggestions" }),
    h("div", { id: "mentions", class: "mentions", hidden: true, "aria-label": "Mentioned files" }),
    h("div", { id: "attachments", class: "attachments", hidden: true, "aria-label": "Attached images" }),
    h("div", { id: "prompt-error", class: "prompt-error", role: "alert", hidden: true }),
    h("textarea", {
      id: "prompt",
      rows: "3",
      placeholder: "Ask companion… (/ for commands, @ for files)",
      "aria-label": "Prompt",
      role: "combobox",
      "aria-autocomplete": "list",
      "aria-controls": "completion",
      "aria-expanded": "false",
      "aria-multiline": "true",
    }),
    h(
      "div",
      { class: "composer-actions" },
      h("span", { class: "composer-hint" }, "Enter to send · Shift+Enter for a newline"),
      h("button", { type: "button", id: "cancel", class: "secondary", hidden: true, "aria-label": "Cancel the running turn" }, icon("debug-stop"), " Cancel"),
      h("button", { type: "button", id: "send", "aria-label": "Send prompt" }, "Send"),
    ),
  );
}
