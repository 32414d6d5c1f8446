// Test helpers: an in-memory Editor, a temp workspace and a controller
// running the real companion binary ($COMPANION_BIN) on a scripted model.

import { mkdtemp, mkdir, realpath, rm, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestContext } from "node:test";
import type { DiffReview, EditProposal, Editor, StatusInfo, TerminalView } from "../../src/core/editor";
import type { IdeContext } from "../../src/core/ideContext";
import type { FileMention, ToWebview } from "../../src/webviewProtocol";
import { ChatController } from "../../src/core/controller";
import type { LanguageAnswer, LanguageRequest } from "../../src/core/language";

/** WAIT_MS bounds every wait, so a broken agent fails the test instead of hanging it. */
export const WAIT_MS = Number(process.env.COMPANION_TEST_WAIT_MS ?? 15_000);

/** companionBin returns $COMPANION_BIN or fails with a clear message. */
export function companionBin(): string {
  const bin = process.env.COMPANION_BIN;
  if (!bin || !path.isAbsolute(bin) || !existsSync(bin)) {
    throw new Error(`set COMPANION_BIN to the absolute path of a built companion binary (got ${JSON.stringify(bin)})`);
  }
  return bin;
}

/** What the test decides for a diff review. */
export interface DiffAnswer {
  decision: "accept" | "reject";
  /** The text the "user" leaves in the proposal before deciding. */
  finalText?: string;
}

/** A terminal view that records what it was shown. */
export class FakeTerminalView implements TerminalView {
  text = "";
  exitSummary: string | undefined;
  disposed = false;
  shown = 0;
  constructor(
    readonly name: string,
    readonly close: () => void,
  ) {}
  write(data: string): void {
    this.text += data;
  }
  exited(summary: string): void {
    this.exitSummary = summary;
  }
  show(): void {
    this.shown++;
  }
  dispose(): void {
    this.disposed = true;
  }
}

/** FakeEditor implements Editor in memory, recording everything. */
export class FakeEditor implements Editor {
  readonly posted: ToWebview[] = [];
  readonly logs: string[] = [];
  readonly statuses: StatusInfo[] = [];
  readonly buffers = new Map<string, string>();
  readonly written: { path: string; content: string }[] = [];
  readonly diffs: EditProposal[] = [];
  /** Proposals brought to the front with DiffReview.show (the card's Review button). */
  readonly shownDiffs: EditProposal[] = [];
  readonly terminals: FakeTerminalView[] = [];
  readonly opened: { path: string; line?: number | null }[] = [];
  context: IdeContext = {};
  files: FileMention[] = [];
  /** Prompts of pick and input, in order. */
  readonly asked: { prompt: string; labels?: string[]; many?: boolean; value?: string }[] = [];
  /** Answers pick (indexes, or undefined to dismiss); default: dismiss. */
  onPick: (prompt: string, labels: string[], many: boolean) => number[] | undefined = () => undefined;
  /** Answers input (text, or undefined to dismiss); default: the prefilled value. */
  onInput: (prompt: string, value: string) => string | undefined = (_, value) => value;
  /** Decides each diff review; default: accept unchanged. */
  onDiff: (p: EditProposal) => Promise<DiffAnswer> | DiffAnswer = () => ({ decision: "accept" });
  private waiters: (() => void)[] = [];
  /** companion's language questions, in order. */
  readonly languageAsked: LanguageRequest[] = [];
  /** Answers them; default: no language features for any file. */
  onLanguage: (req: LanguageRequest) => LanguageAnswer = () => ({ available: false });

  async pick(prompt: string, labels: string[], many: boolean): Promise<number[] | undefined> {
    this.asked.push({ prompt, labels, many });
    return this.onPick(prompt, labels, many);
  }
  async input(prompt: string, value: string, validate: (text: string) => string | undefined): Promise<string | undefined> {
    this.asked.push({ prompt, value });
    const text = this.onInput(prompt, value);
    if (text !== undefined && validate(text) !== undefined) throw new Error(`the form would refuse ${JSON.stringify(text)}: ${validate(text)}`);
    return text;
  }
  openDocumentText(p: string): string | undefined {
    return this.buffers.get(p);
  }
  async writeFile(p: string, content: string): Promise<void> {
    await mkdir(path.dirname(p), { recursive: true });
    await writeFile(p, content);
    this.buffers.delete(p);
    this.written.push({ path: p, content });
    this.wake();
  }
  readonly deleted: string[] = [];
  readonly changesShown: { path: string; oldText: string }[] = [];
  async deleteFile(p: string): Promise<void> {
    await rm(p, { force: true });
    this.deleted.push(p);
    this.wake();
  }
  async showChange(p: string, oldText: string): Promise<void> {
    this.changesShown.push({ path: p, oldText });
    this.wake();
  }
  async openDiff(proposal: EditProposal): Promise<DiffReview> {
    this.diffs.push(proposal);
    let text = proposal.newText;
    const decision = Promise.resolve(this.onDiff(proposal)).then((a) => {
      if (a.finalText !== undefined) text = a.finalText;
      return a.decision;
    });
    this.wake();
    return {
      decision,
      currentText: () => text,
      show: async () => {
        this.shownDiffs.push(proposal);
      },
      close: async () => {},
    };
  }
  createTerminalView(name: string, onClose: () => void): TerminalView {
    const v = new FakeTerminalView(name, onClose);
    this.terminals.push(v);
    return v;
  }
  post(message: ToWebview): void {
    this.posted.push(message);
    this.wake();
  }
  showStatus(status: StatusInfo): void {
    this.statuses.push(status);
    this.wake();
  }
  async openLocation(p: string, line?: number | null): Promise<void> {
    this.opened.push({ path: p, line });
  }
  async findFiles(): Promise<FileMention[]> {
    return this.files;
  }
  ideContext(): IdeContext {
    return this.context;
  }
  async language(req: LanguageRequest): Promise<LanguageAnswer> {
    this.languageAsked.push(req);
    this.wake();
    return this.onLanguage(req);
  }
  log(line: string): void {
    this.logs.push(line);
  }

  /** agentText joins the streamed agent message text posted to the webview. */
  agentText(sessionId?: string): string {
    return this.updates(sessionId)
      .filter((u) => u.sessionUpdate === "agent_message_chunk" && u.content.type === "text")
      .map((u) => (u as { content: { text: string } }).content.text)
      .join("");
  }

  /** updates returns the posted session updates (of one session when given). */
  updates(sessionId?: string) {
    return this.posted.flatMap((m) => (m.type === "update" && (!sessionId || m.sessionId === sessionId) ? [m.update] : []));
  }

  /** waitFor resolves once pred holds, checking after every recorded event. */
  async waitFor<T>(label: string, pred: () => T | undefined | false): Promise<T> {
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const v = pred();
      if (v) return v;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${label}; posted: ${JSON.stringify(this.posted.slice(-8))}\nlogs: ${this.logs.slice(-10).join("\n")}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, Math.min(left, 200));
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }
}

/** A scripted-model turn (see agent/model/scripted/README.md). */
export type ScriptTurn = Record<string, unknown>;

/** Harness is one controller on the real binary in a temp workspace. */
export interface Harness {
  editor: FakeEditor;
  controller: ChatController;
  workspace: string;
  home: string;
}

/**
 * start runs a ChatController against $COMPANION_BIN acp --script in a
 * fresh workspace and home; everything is stopped and removed after the test.
 */
export async function start(
  t: TestContext,
  turns: ScriptTurn[],
  opts: {
    files?: Record<string, string>;
    approvalMode?: string;
    trusted?: boolean;
    home?: string;
    additionalDirectories?: string[];
    /** An existing workspace (kept after the test); default: a fresh one. */
    workspace?: string;
    /** The store of the last open session (the extension's workspaceState). */
    lastSession?: { get(): string | undefined; set(id: string | undefined): void };
    /** Receives the ACP trace (companion.trace). */
    tracer?: import("../../src/core/trace").Tracer;
    /** Leave the agent unstarted (the test starts it, racing something against the start). */
    noStart?: boolean;
  } = {},
): Promise<Harness> {
  const bin = companionBin();
  const home = opts.home ?? (await realpath(await mkdtemp(path.join(tmpdir(), "companion-vsc-home-"))));
  const workspace = opts.workspace ?? (await realpath(await mkdtemp(path.join(tmpdir(), "companion-vsc-ws-"))));
  for (const [name, content] of Object.entries(opts.files ?? {})) {
    await mkdir(path.dirname(path.join(workspace, name)), { recursive: true });
    await writeFile(path.join(workspace, name), content);
  }
  const script = path.join(home, `script-${path.basename(workspace)}.json`);
  await writeFile(script, JSON.stringify({ turns, fallback: "echo" }));
  const editor = new FakeEditor();
  const controller = new ChatController(editor, {
    launch: async () => ({
      command: bin,
      args: ["acp", "--script", script],
      cwd: workspace,
      env: { HOME: home, XDG_CONFIG_HOME: path.join(home, ".config"), XDG_STATE_HOME: path.join(home, ".state"), PATH: process.env.PATH ?? "/usr/bin:/bin" },
    }),
    cwd: () => workspace,
    additionalDirectories: () => opts.additionalDirectories ?? [],
    approvalMode: () => opts.approvalMode ?? "default",
    trusted: () => opts.trusted ?? true,
    restartDelaysMs: [50, 50, 50],
    contextDelayMs: 20,
    lastSession: opts.lastSession,
    tracer: () => opts.tracer,
  });
  // A checkpoint git the agent started may still be writing under home
  // for a moment after dispose: rm retries ENOTEMPTY (seen in a warm CI run).
  t.after(async () => {
    await controller.dispose();
    if (!opts.workspace) await rm(workspace, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    if (!opts.home) await rm(home, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  });
  if (!opts.noStart) await controller.start();
  return { editor, controller, workspace, home };
}

/** turnEnded waits for the posted idle turn message after index `from`. */
export function turnEnded(editor: FakeEditor, from = 0) {
  return editor.waitFor("the turn to end", () =>
    editor.posted.slice(from).find((m): m is ToWebview & { type: "turn"; state: "idle" } => m.type === "turn" && m.state === "idle"),
  );
}
