// The prompt box: Enter sends, Shift+Enter is a newline; "/" completes the
// agent's slash commands, "@" searches workspace files (through the
// extension) and turns the chosen one into a mention chip.

import type * as acp from "@agentclientprotocol/sdk";
import { filterCommands, findTrigger, moveSelection, replaceToken, type Trigger } from "../completion";
import { byId, h, setChildren } from "../dom";
import type { FileMention, FromWebview, ImageAttachment } from "../protocol";
import { imageFiles, readImage } from "./images";

/** Draft is the unsent prompt, kept across hide / show. */
export interface Draft {
  text: string;
  mentions: FileMention[];
  images?: ImageAttachment[];
}

/** ComposerHost is what the composer needs from the app. */
export interface ComposerHost {
  post(msg: FromWebview): void;
  commands(): acp.AvailableCommand[];
  running(): boolean;
  /** sent shows the prompt in the transcript. */
  sent(text: string, mentions: FileMention[], images: ImageAttachment[]): void;
  /** problem shows why something the user did was refused (an image that cannot be attached). */
  problem(message: string): void;
  /** changed reports that the draft changed (to save it). */
  changed(): void;
}

interface Choice {
  value: string;
  label: string;
  detail: string;
  mention?: FileMention;
}

/** SEARCH_DELAY_MS debounces file searches while the user types after "@". */
const SEARCH_DELAY_MS = 120;

/** Composer owns the prompt box, its completion popup and the mention chips. */
export class Composer {
  readonly #input: HTMLTextAreaElement;
  readonly #popup: HTMLElement;
  #mentions: FileMention[] = [];
  /** What the last rewind put in the box, while it may still be there untouched. */
  #rewound: { text: string; mentions: FileMention[] } | null = null;
  #images: ImageAttachment[] = [];
  #trigger: Trigger | null = null;
  #choices: Choice[] = [];
  #selected = 0;
  #searchSeq = 0;
  #pendingSearch: string | null = null;
  #searchTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly root: HTMLElement, private readonly host: ComposerHost) {
    this.#input = byId<HTMLTextAreaElement>(root, "prompt");
    this.#popup = byId(root, "completion");
    this.#input.addEventListener("input", () => this.#onInput());
    this.#input.addEventListener("keydown", (e) => this.#onKey(e));
    this.#input.addEventListener("blur", () => setTimeout(() => this.#close(), 150));
    this.#input.addEventListener("click", () => this.#refresh());
    byId(root, "send").addEventListener("click", () => this.send());
    byId(root, "cancel").addEventListener("click", () => host.post({ type: "cancel" }));
    // A pasted or dropped image is attached; anything else is left to the text box.
    this.#input.addEventListener("paste", (e) => this.#attach(e, imageFiles(e.clipboardData)));
    const composer = this.#input.closest<HTMLElement>(".composer") ?? this.#input;
    composer.addEventListener("dragover", (e) => {
      if (imageFiles(e.dataTransfer).length || [...(e.dataTransfer?.types ?? [])].includes("Files")) e.preventDefault();
    });
    composer.addEventListener("drop", (e) => this.#attach(e, imageFiles(e.dataTransfer)));
  }

  #attach(e: Event, files: File[]): void {
    if (!files.length) return;
    e.preventDefault();
    for (const f of files) {
      readImage(f).then(
        (img) => {
          this.#images.push(img);
          this.#renderImages();
          this.host.changed();
        },
        (err: Error) => this.host.problem(err.message),
      );
    }
  }

  #renderImages(): void {
    const box = byId(this.root, "attachments");
    box.hidden = this.#images.length === 0;
    setChildren(box, ...this.#images.map((img, i) => {
      const label = img.name ?? `image ${i + 1}`;
      const remove = h("button", { type: "button", class: "attachment-remove", "aria-label": `Remove ${label}` }, "×");
      remove.addEventListener("click", () => {
        this.#images = this.#images.filter((x) => x !== img);
        this.#renderImages();
        this.host.changed();
      });
      return h("span", { class: "attachment", "data-mime-type": img.mimeType, title: label }, h("img", { class: "attachment-thumb", src: `data:${img.mimeType};base64,${img.data}`, alt: label }), remove);
    }));
  }

  /** draft returns the unsent prompt. */
  draft(): Draft {
    return { text: this.#input.value, mentions: [...this.#mentions], images: [...this.#images] };
  }

  /** restore puts a saved draft back. */
  restore(d: Draft): void {
    this.#input.value = d.text;
    this.#mentions = [...d.mentions];
    this.#images = [...(d.images ?? [])];
    this.#renderMentions();
    this.#renderImages();
  }

  /** render updates what depends on the turn: send vs cancel. */
  render(): void {
    const running = this.host.running();
    byId(this.root, "cancel").hidden = !running;
    byId<HTMLButtonElement>(this.root, "send").disabled = running;
  }

  /** send posts the prompt and clears the box. */
  send(): void {
    const text = this.#input.value.trim();
    if ((!text && !this.#mentions.length && !this.#images.length) || this.host.running()) return;
    const mentions = this.#mentions;
    const images = this.#images;
    this.host.post({ type: "prompt", text, mentions, ...(images.length ? { images } : {}) });
    this.host.sent(text, mentions, images);
    this.#rewound = null;
    this.#input.value = "";
    this.#mentions = [];
    this.#images = [];
    this.#renderMentions();
    this.#renderImages();
    this.#close();
    this.host.changed();
  }

  /**
   * rewound puts a rewound prompt in the box, in place of the one an earlier
   * rewind put there if the user left it as it was (two rewinds never stack
   * two prompts for one Enter to send); what the user typed stays after it.
   */
  rewound(text: string, mentions: FileMention[]): void {
    const prev = this.#rewound;
    if (prev) {
      const now = this.#input.value;
      if (now === prev.text) this.#input.value = "";
      else if (now.startsWith(`${prev.text}\n`)) this.#input.value = now.slice(prev.text.length + 1);
      this.#mentions = this.#mentions.filter((m) => !prev.mentions.some((p) => p.uri === m.uri));
      this.#renderMentions();
    }
    this.giveBack(text, mentions);
    this.#rewound = { text, mentions };
  }

  /** giveBack puts a prompt that was not delivered back in the box (before anything typed since). */
  giveBack(text: string, mentions: FileMention[], images: ImageAttachment[] = []): void {
    const now = this.#input.value;
    this.#input.value = now.trim() ? `${text}\n${now}` : text;
    for (const m of mentions) this.#addMention(m);
    if (images.length) {
      this.#images = [...images, ...this.#images];
      this.#renderImages();
    }
    this.#input.focus();
    this.host.changed();
  }

  /** insert adds text at the cursor (and mentions), e.g. "Add selection to chat". */
  insert(text: string, mentions: FileMention[] = []): void {
    const at = this.#input.selectionStart ?? this.#input.value.length;
    this.#input.setRangeText(text, at, this.#input.selectionEnd ?? at, "end");
    for (const m of mentions) this.#addMention(m);
    this.#input.focus();
    this.host.changed();
  }

  /** files takes the extension's answer to a searchFiles; stale answers are ignored. */
  files(requestId: string, items: FileMention[]): void {
    if (requestId !== this.#pendingSearch || this.#trigger?.mode !== "mention" || document.activeElement !== this.#input) return;
    this.#pendingSearch = null;
    this.#show(items.map((m) => ({ value: m.uri, label: m.label, detail: m.description ?? "", mention: m })));
  }

  #onInput(): void {
    this.#refresh();
    this.host.changed();
  }

  /** #refresh re-reads the token at the cursor and updates the popup. */
  #refresh(): void {
    const t = findTrigger(this.#input.value, this.#input.selectionStart ?? 0);
    const same = t && this.#trigger && t.mode === this.#trigger.mode && t.query === this.#trigger.query;
    this.#trigger = t;
    if (!t) return this.#close();
    if (same) return;
    if (t.mode === "slash") {
      const cmds = filterCommands(this.host.commands(), t.query);
      return this.#show(cmds.map((c) => ({ value: c.name, label: `/${c.name}`, detail: c.input?.hint ? `${c.description} — ${c.input.hint}` : c.description })));
    }
    this.#search(t.query);
  }

  #search(query: string): void {
    clearTimeout(this.#searchTimer);
    this.#searchTimer = setTimeout(() => {
      const requestId = `files-${++this.#searchSeq}`;
      this.#pendingSearch = requestId;
      this.host.post({ type: "searchFiles", requestId, query });
    }, SEARCH_DELAY_MS);
    if (!this.#choices.length) this.#show([], "Searching files…");
  }

  #onKey(e: KeyboardEvent): void {
    if (e.isComposing) return;
    const open = !this.#popup.hidden && this.#choices.length > 0;
    if (open && (e.key === "ArrowDown" || e.key === "ArrowUp")) {
      this.#selected = moveSelection(this.#selected, e.key === "ArrowDown" ? 1 : -1, this.#choices.length);
      this.#renderPopup();
    } else if (open && (e.key === "Tab" || e.key === "Enter") && !e.shiftKey) {
      this.#accept(this.#selected);
    } else if (!this.#popup.hidden && e.key === "Escape") {
      this.#close();
    } else if (e.key === "Enter" && !e.shiftKey && !e.altKey) {
      this.send();
    } else {
      return;
    }
    e.preventDefault();
  }

  #accept(index: number): void {
    const c = this.#choices[index];
    const t = this.#trigger;
    if (!c || !t) return;
    const insert = c.mention ? `@${c.mention.label}` : `/${c.value}`;
    const next = replaceToken(this.#input.value, t, insert);
    this.#input.value = next.text;
    this.#input.setSelectionRange(next.cursor, next.cursor);
    if (c.mention) this.#addMention(c.mention);
    this.#close();
    this.#input.focus();
    this.host.changed();
  }

  #addMention(m: FileMention): void {
    if (!this.#mentions.some((x) => x.uri === m.uri)) this.#mentions.push(m);
    this.#renderMentions();
  }

  #renderMentions(): void {
    const box = byId(this.root, "mentions");
    box.hidden = this.#mentions.length === 0;
    setChildren(box, ...this.#mentions.map((m) => {
      const remove = h("button", { type: "button", class: "mention-remove", "aria-label": `Remove ${m.label}` }, "×");
      remove.addEventListener("click", () => {
        this.#mentions = this.#mentions.filter((x) => x.uri !== m.uri);
        this.#renderMentions();
        this.host.changed();
      });
      return h("span", { class: "mention-chip", "data-uri": m.uri, title: m.description ?? m.uri }, `@${m.label}`, remove);
    }));
  }

  #show(choices: Choice[], empty?: string): void {
    this.#choices = choices;
    this.#selected = 0;
    if (!choices.length && !empty) {
      this.#close();
      if (this.#trigger?.mode === "mention") this.#show([], "No matching files.");
      return;
    }
    this.#popup.hidden = false;
    this.#popup.dataset.mode = this.#trigger?.mode ?? "";
    this.#input.setAttribute("aria-expanded", "true");
    this.#renderPopup(empty);
  }

  #renderPopup(empty?: string): void {
    const items = this.#choices.map((c, i) => {
      const el = h("div", { class: "completion-item", role: "option", id: `completion-item-${i}`, "data-value": c.value, "aria-selected": String(i === this.#selected) }, h("span", { class: "completion-label" }, c.label), h("span", { class: "completion-detail" }, c.detail));
      el.addEventListener("mousedown", (e) => {
        e.preventDefault(); // keep the focus in the prompt box
        this.#accept(i);
      });
      return el;
    });
    setChildren(this.#popup, ...(items.length ? items : [h("div", { class: "completion-empty" }, empty ?? "")]));
    if (items.length) {
      this.#input.setAttribute("aria-activedescendant", `completion-item-${this.#selected}`);
      items[this.#selected]?.scrollIntoView?.({ block: "nearest" });
    } else {
      this.#input.removeAttribute("aria-activedescendant");
    }
  }

  #close(): void {
    this.#popup.hidden = true;
    this.#choices = [];
    this.#input.setAttribute("aria-expanded", "false");
    this.#input.removeAttribute("aria-activedescendant");
  }
}
