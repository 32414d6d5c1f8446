// The chat webview's entry point: builds the page inside #root, folds the
// extension's messages into the model, renders at most once per animation
// frame, and keeps the model in vscode.setState so a hidden-then-shown view
// comes back at once (the extension then re-sends the session, which
// resets and rebuilds the same transcript).

import { isViewState, emptyState, type ViewState } from "./model";
import type { FromWebview, ToWebview } from "./protocol";
import { addLocalPrompt, apply, askRewind, cancelRewind, confirmRewind, dismissBanner, rewindable, setConfigValue, settlePermission } from "./reduce";
import { skeleton } from "./view/skeleton";
import { Chrome } from "./view/chrome";
import { Composer, type Draft } from "./view/composer";
import { Transcript } from "./view/transcript";
import { permissionKey } from "./view/items";
import { ChangesView } from "./view/changes";
import { decideChange } from "./changes";

interface VsCodeApi {
  postMessage(msg: FromWebview): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

/** Saved is what the view keeps in vscode.setState. */
interface Saved {
  model: ViewState;
  draft: Draft;
}

/** SAVE_DELAY_MS batches state saves while an answer streams. */
const SAVE_DELAY_MS = 300;

class App {
  readonly #vscode = acquireVsCodeApi();
  #state: ViewState = emptyState();
  readonly #messages: HTMLElement;
  readonly #transcript: Transcript;
  readonly #chrome: Chrome;
  readonly #composer: Composer;
  readonly #changes: ChangesView;
  #frame = 0;
  #sessionShown = false;
  #saveTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(root: HTMLElement) {
    // The page's HTML already shows a plain prompt box; what was typed there keeps going.
    const early = root.querySelector<HTMLTextAreaElement>("textarea#prompt");
    const typed = early?.value ?? "";
    const focused = !!early && document.activeElement === early;
    root.replaceChildren(skeleton());
    this.#messages = root.querySelector<HTMLElement>("#messages")!;
    const post = (msg: FromWebview): void => this.#vscode.postMessage(msg);
    this.#transcript = new Transcript(this.#messages, () => ({ post, cwd: this.#state.cwd, answer: (r, o) => this.#answer(r, o), rewind: (a, id) => this.#rewind(a, id) }));
    this.#chrome = new Chrome(root, {
      post,
      pick: (id, v) => this.#change(() => setConfigValue(this.#state, id, v)),
      dismiss: () => this.#change(() => dismissBanner(this.#state)),
    });
    this.#composer = new Composer(root, {
      post,
      commands: () => this.#state.commands,
      running: () => this.#state.turn === "running",
      sent: (text, mentions, images) => this.#change(() => addLocalPrompt(this.#state, text, mentions, images)),
      problem: (message) => this.#change(() => apply(this.#state, { type: "error", message })),
      changed: () => this.#scheduleSave(),
    });
    this.#changes = new ChangesView(root, {
      show: (f) => post({ type: "showChange", path: f.path, oldText: f.oldText }),
      decide: (path, d) =>
        this.#change(() => {
          const files = decideChange(this.#state, path, d);
          if (d === "reverted" && files.length) post({ type: "revertChanges", files: files.map((f) => ({ path: f.path, oldText: f.oldText })) });
        }),
    });
    this.#restore();
    if (typed) {
      const d = this.#composer.draft();
      this.#composer.restore({ ...d, text: d.text ? `${d.text}\n${typed}` : typed });
    }
    if (focused) root.querySelector<HTMLTextAreaElement>("textarea#prompt")?.focus();
    window.addEventListener("message", (e: MessageEvent<ToWebview>) => this.#onMessage(e.data));
    // With nothing focused in the view, Enter / Esc answer the newest pending permission card.
    document.addEventListener("keydown", (e) => {
      if (document.activeElement && document.activeElement !== document.body) return;
      const cards = this.#messages.querySelectorAll('.permission[data-state="pending"]');
      const card = cards[cards.length - 1];
      if (card) permissionKey(e, card, true);
    });
    window.addEventListener("pagehide", () => this.#save());
    document.addEventListener("visibilitychange", () => document.visibilityState === "hidden" && this.#save());
    this.#renderNow();
    post({ type: "ready" });
    post({ type: "timing", name: "prompt box shown", ms: performance.now() });
  }

  #restore(): void {
    const saved = this.#vscode.getState() as Partial<Saved> | undefined;
    if (saved && isViewState(saved.model)) this.#state = saved.model;
    if (saved?.draft) this.#composer.restore(saved.draft);
  }

  #onMessage(msg: ToWebview): void {
    if (!msg || typeof msg !== "object" || typeof msg.type !== "string") return;
    if (msg.type === "session" && !this.#sessionShown) {
      this.#sessionShown = true;
      this.#vscode.postMessage({ type: "timing", name: "first session shown", ms: performance.now() });
    }
    if (msg.type === "files") return this.#composer.files(msg.requestId, msg.items);
    if (msg.type === "insertText") return this.#composer.insert(msg.text, msg.mentions);
    if (msg.type === "promptFailed") this.#composer.giveBack(msg.text, msg.mentions, msg.images);
    // The rewound prompt goes back to the box to be edited (before anything typed meanwhile), replacing an earlier rewind's.
    if (msg.type === "rewound" && msg.sessionId === this.#state.sessionId) this.#composer.rewound(msg.text, msg.mentions);
    this.#change(() => apply(this.#state, msg));
  }

  #rewind(action: "ask" | "confirm" | "cancel", itemId: string): void {
    this.#change(() => {
      if (action === "ask") return askRewind(this.#state, itemId);
      if (action === "cancel") return cancelRewind(this.#state);
      const prompt = confirmRewind(this.#state, itemId);
      if (prompt !== null) this.#vscode.postMessage({ type: "rewind", prompt });
    });
  }

  #answer(requestId: string, optionId: string): void {
    this.#change(() => settlePermission(this.#state, requestId, optionId));
  }

  /** #change runs a model change and schedules one render for the frame. */
  #change(fn: () => void): void {
    fn();
    if (!this.#frame) this.#frame = requestAnimationFrame(() => this.#renderNow());
    this.#scheduleSave();
  }

  #renderNow(): void {
    this.#frame = 0;
    const stick = this.#nearBottom();
    this.#chrome.render(this.#state);
    this.#composer.render();
    this.#changes.render(this.#state);
    // While a session replays, the old transcript stays on screen and the new
    // one appears whole at replayDone: no flash of an empty view on hide / show.
    this.#messages.setAttribute("aria-busy", String(this.#state.replaying));
    this.#messages.dataset.rewind = rewindable(this.#state) ? "on" : "off";
    if (this.#state.replaying) return;
    if (this.#transcript.render(this.#state) && stick) this.#messages.scrollTop = this.#messages.scrollHeight;
  }

  /** #nearBottom: follow the stream only when the user has not scrolled up. */
  #nearBottom(): boolean {
    const m = this.#messages;
    return m.scrollHeight - m.scrollTop - m.clientHeight < 48;
  }

  #scheduleSave(): void {
    clearTimeout(this.#saveTimer);
    this.#saveTimer = setTimeout(() => this.#save(), SAVE_DELAY_MS);
  }

  #save(): void {
    clearTimeout(this.#saveTimer);
    const saved: Saved = { model: this.#state, draft: this.#composer.draft() };
    this.#vscode.setState(saved);
  }
}

const root = document.getElementById("root");
if (root) new App(root);
