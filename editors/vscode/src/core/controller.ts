// ChatController is the extension's one ACP client: it keeps the agent
// running (AgentSupervisor), owns the current session, answers the agent's
// fs / terminal / permission requests through the Editor, and turns webview
// messages into ACP calls. Everything the webview was shown is kept in a
// Transcript so a re-shown webview gets the conversation back.

import * as acp from "@agentclientprotocol/sdk";
import type { FileMention, FromWebview, ImageAttachment, ToWebview, SessionSummary } from "../webviewProtocol";
import type { Editor, StatusInfo } from "./editor";
import { AgentSupervisor, type AgentState } from "./supervisor";
import type { AgentConnection, ClientHandlers, LaunchSpec } from "./connection";
import { ContextSender, IDE_CONTEXT_METHOD } from "./ideContext";
import { Permissions } from "./permissions";
import { Terminals } from "./terminals";
import { Transcript } from "./transcript";
import { readTextFile, writeTextFile } from "./files";
import { changedIn, revertFiles } from "./changes";
import { askForm } from "./forms";
import { buildPrompt, checkImages, userMessageUpdates } from "./prompt";
import { startMode } from "./trust";
import { cleanTitle, historyEntries } from "./titles";
import type { Tracer } from "./trace";
import { advertisesStats, isStats, STATS_METHOD, type SessionStats } from "./stats";

/** How the controller starts the agent and new sessions. */
export interface ControllerOptions {
  launch: () => Promise<LaunchSpec>;
  /** The folder new sessions run in. */
  cwd: () => string;
  /** More roots the agent may work in (the other folders of a multi-root workspace). */
  additionalDirectories?: () => string[];
  /** The approval mode new sessions start in ("default" leaves the agent's). */
  approvalMode: () => string;
  /** Whether the user trusts the workspace (VS Code's workspace trust); unset means trusted. */
  trusted?: () => boolean;
  restartDelaysMs?: number[];
  contextDelayMs?: number;
  /** How long the agent may take to answer initialize. */
  initializeTimeoutMs?: number;
  /**
   * Where the id of the session the chat shows is kept across window
   * reloads (VS Code's workspaceState): the first connection loads it back.
   */
  lastSession?: { get(): string | undefined; set(sessionId: string | undefined): void };
  /** Sees every ACP message (the companion.trace setting); read at each start. */
  tracer?: () => Tracer | undefined;
  /** Timing marks (reload → usable prompt box), e.g. "agent ready". */
  mark?: (name: string) => void;
}

/** The current session's state. */
interface SessionState {
  sessionId: string;
  cwd: string;
  title?: string | null;
  modes?: acp.SessionModeState | null;
  configOptions?: acp.SessionConfigOption[] | null;
}

/** REWIND_METHOD is companion's extension request that forks a session before one of its prompts. */
export const REWIND_METHOD = "_companion/session/rewind";

/** What REWIND_METHOD answers. */
interface RewindResponse {
  sessionId: string;
  prompt?: acp.ContentBlock[];
  restored?: string[];
}

/** The error code companion answers when it has no API key. */
const AUTH_REQUIRED = -32000;

/** ChatController connects the webview, the editor and the agent. */
export class ChatController {
  readonly supervisor: AgentSupervisor;
  readonly transcript = new Transcript();
  private readonly permissions: Permissions;
  private readonly terminals: Terminals;
  private readonly context: ContextSender;
  private session: SessionState | undefined;
  private readonly running = new Set<string>(); // sessions whose turn runs
  private readonly cancelling = new Set<string>(); // sessions whose running turn the user cancelled
  /** terminal id → its tool call, while the terminal may still change (ids never repeat); pruned once it ended and was released. */
  private readonly terminalCalls = new Map<string, { sessionId: string; toolCallId: string; released?: boolean }>();
  private loading: { sessionId: string; buffer: acp.SessionUpdate[] } | undefined;
  private status: { state: AgentState; message?: string; agent?: { name: string; version?: string } } = { state: "stopped" };
  /** The last usage_update, and whose it is: the status bar shows it only while that session is current. */
  private usage: { sessionId: string; value: NonNullable<StatusInfo["usage"]> } | undefined;
  /** The figures last fetched with STATS_METHOD (after a turn), for the status bar tooltip. */
  private stats: SessionStats | undefined;
  private titles = new Map<string, string>();
  /** startup settles once a fresh connection has its first session (restored or new). */
  private startup: Promise<void> | undefined;

  constructor(
    private readonly editor: Editor,
    private readonly opts: ControllerOptions,
  ) {
    this.permissions = new Permissions(editor);
    this.terminals = new Terminals(editor, (id) => this.terminalChanged(id));
    this.context = new ContextSender(
      () => editor.ideContext(),
      (params) => this.notifyContext(params),
      opts.contextDelayMs,
    );
    this.supervisor = new AgentSupervisor(
      opts.launch,
      this.clientHandlers(),
      {
        status: (state, message, agent) => this.setStatus(state, message, agent),
        connected: (conn, restarted) => this.onConnected(conn, restarted),
        died: (message) => this.onDied(message),
      },
      (line) => editor.log(line),
      { delaysMs: opts.restartDelaysMs, initializeTimeoutMs: opts.initializeTimeoutMs, tracer: opts.tracer },
    );
  }

  /** start launches the agent. */
  start(): Promise<void> {
    return this.supervisor.start();
  }

  /** dispose stops the agent and everything it started. */
  async dispose(): Promise<void> {
    this.context.dispose();
    this.permissions.cancelAll();
    this.terminals.disposeAll();
    await this.supervisor.stop();
  }

  /** currentSessionId is the session the chat shows. */
  get currentSessionId(): string | undefined {
    return this.session?.sessionId;
  }

  /** contextChanged schedules an IDE context update (the editor calls it on every change). */
  contextChanged(): void {
    this.context.schedule();
  }

  /** handle runs one webview message. */
  async handle(msg: FromWebview): Promise<void> {
    try {
      await this.dispatch(msg);
    } catch (err) {
      this.editor.post({ type: "error", message: errorText(err) });
    }
  }

  private async dispatch(msg: FromWebview): Promise<void> {
    switch (msg.type) {
      case "ready":
        return this.replayAll();
      case "prompt":
        try {
          return await this.prompt(msg.text, msg.mentions, msg.images ?? []);
        } catch (err) {
          if (!(err instanceof PromptNotDelivered)) throw err;
          // The prompt goes back to the box with why, instead of vanishing.
          this.editor.post({ type: "promptFailed", text: msg.text, mentions: msg.mentions, error: err.message, ...(msg.images?.length ? { images: msg.images } : {}) });
          return;
        }
      case "cancel":
        return this.cancel();
      case "permissionResponse":
        return this.permissions.answer(msg.requestId, msg.optionId, msg.message);
      case "reviewDiff":
        if (!(await this.permissions.review(msg.requestId))) this.editor.post({ type: "error", message: "That edit is no longer being reviewed." });
        return;
      case "setConfigOption":
        return this.setConfigOption(msg.configId, msg.value);
      case "setMode":
        return this.setMode(msg.modeId);
      case "newSession":
        return this.newSession().catch((err) => {
          throw new Error(`Cannot start a new session: ${errorText(err)}`);
        });
      case "listSessions":
        return this.listSessions();
      case "loadSession":
        return this.loadSession(msg.sessionId);
      case "rewind":
        return this.rewind(msg.prompt);
      case "openLocation":
        return this.editor.openLocation(msg.path, msg.line);
      case "showChange":
        if (!this.changedThisSession(msg.path)) return;
        return this.editor.showChange(msg.path, msg.oldText ?? "");
      case "revertChanges":
        return this.revertChanges(msg.files);
      case "searchFiles":
        return this.editor.post({ type: "files", requestId: msg.requestId, items: await this.editor.findFiles(msg.query) });
      case "focusTerminal":
        if (!this.terminals.focus(msg.terminalId)) this.editor.post({ type: "error", message: "That terminal is closed." });
        return;
      case "restartAgent":
        return this.supervisor.restart();
      case "timing":
        this.opts.mark?.(`webview ${msg.name} (${Math.round(msg.ms)} ms after the page started)`);
        return;
    }
  }

  // ---- sessions ----

  /**
   * newSession starts a fresh session in the workspace and makes it current.
   * A current session nothing was sent in yet is fresh already: it is shown
   * again instead of leaving one more empty session behind.
   */
  async newSession(): Promise<void> {
    await this.startup; // a session being restored becomes current first
    return this.freshSession();
  }

  private async freshSession(): Promise<void> {
    const conn = await this.connection();
    const cur = this.session;
    if (cur && !this.hasPrompt(cur.sessionId) && !this.running.has(cur.sessionId)) {
      await this.applyApprovalMode(conn, cur);
      this.becomeCurrent(cur);
      return;
    }
    const cwd = this.opts.cwd();
    const resp = await conn.agent.request(acp.methods.agent.session.new, { cwd, ...this.roots(), mcpServers: [] }).catch(authHint);
    const state: SessionState = { sessionId: resp.sessionId, cwd, modes: resp.modes, configOptions: resp.configOptions };
    await this.applyApprovalMode(conn, state);
    this.becomeCurrent(state);
  }

  private async applyApprovalMode(conn: AgentConnection, s: SessionState): Promise<void> {
    const { mode, refused } = startMode(this.opts.approvalMode(), this.opts.trusted?.() ?? true);
    if (refused) this.editor.log(refused);
    if (mode === "default" || s.modes?.currentModeId === mode) return;
    if (!s.modes?.availableModes.some((m) => m.id === mode)) {
      this.editor.log(`approval mode ${mode} is not offered by the agent; keeping ${s.modes?.currentModeId}`);
      return;
    }
    await conn.agent.request(acp.methods.agent.session.setMode, { sessionId: s.sessionId, modeId: mode });
    s.modes = { ...s.modes, currentModeId: mode };
  }

  /** hasPrompt tells whether anything was sent in a session (a user message is in its transcript). */
  private hasPrompt(sessionId: string): boolean {
    return this.transcript.updates(sessionId).some((u) => u.sessionUpdate === "user_message_chunk");
  }

  private becomeCurrent(s: SessionState): void {
    this.session = s;
    if (this.hasPrompt(s.sessionId)) this.opts.lastSession?.set(s.sessionId);
    this.postSession();
    void this.context.flush(true, s.sessionId);
  }

  /** postSession sends the current session and replays what it showed so far. */
  private postSession(): void {
    const s = this.session;
    if (!s) return;
    const updates = this.transcript.updates(s.sessionId);
    const replaying = updates.length > 0;
    const title = cleanTitle(s.title ?? this.titles.get(s.sessionId)) || null;
    this.editor.post({ type: "session", sessionId: s.sessionId, cwd: s.cwd, title, modes: s.modes, configOptions: s.configOptions, replaying });
    if (replaying) {
      for (const update of updates) this.editor.post({ type: "update", sessionId: s.sessionId, update });
      this.editor.post({ type: "replayDone", sessionId: s.sessionId });
    }
    if (this.running.has(s.sessionId)) this.editor.post({ type: "turn", sessionId: s.sessionId, state: "running" });
    for (const card of this.permissions.cards(s.sessionId)) this.editor.post(card);
    this.showStatus(); // the tooltip's figures are the shown session's
  }

  private async listSessions(): Promise<void> {
    try {
      const conn = await this.connection();
      const sessions: SessionSummary[] = [];
      let cursor: string | null | undefined;
      for (let page = 0; page < 10; page++) {
        const resp = await conn.agent.request(acp.methods.agent.session.list, { cwd: this.opts.cwd(), cursor });
        for (const s of resp.sessions) {
          sessions.push({ sessionId: s.sessionId, cwd: s.cwd, title: s.title, updatedAt: s.updatedAt });
          if (s.title) this.titles.set(s.sessionId, s.title);
        }
        cursor = resp.nextCursor;
        if (!cursor) break;
      }
      this.editor.post({ type: "sessions", sessions: historyEntries(sessions, this.session?.sessionId) });
    } catch (err) {
      this.editor.post({ type: "sessions", sessions: [], error: errorText(err) });
    }
  }

  /** loadSession loads a stored session; its replayed history is buffered, then shown as a replay. */
  async loadSession(sessionId: string): Promise<void> {
    const conn = await this.connection();
    const cwd = this.opts.cwd();
    this.loading = { sessionId, buffer: [] };
    let resp: acp.LoadSessionResponse;
    try {
      resp = await conn.agent.request(acp.methods.agent.session.load, { sessionId, cwd, ...this.roots(), mcpServers: [] });
    } finally {
      const buffer = this.loading.buffer;
      this.loading = undefined;
      this.transcript.reset(sessionId);
      for (const u of buffer) this.transcript.add(sessionId, u);
    }
    const s: SessionState = { sessionId, cwd, modes: resp.modes, configOptions: resp.configOptions };
    for (const u of this.transcript.updates(sessionId)) applyToState(s, u);
    this.becomeCurrent(s);
  }

  /**
   * rewind forks the current session before its `prompt`-th user message
   * (0-based): the agent restores the files changed since then to how they
   * were before it and answers the fork, which is loaded (its shortened
   * history replayed); the prompt's text then goes back to the box and the
   * restored files are named. An error leaves the chat as it was (handle
   * shows it).
   */
  async rewind(prompt: number): Promise<void> {
    const s = this.requireSession();
    if (this.running.has(s.sessionId)) throw new Error("A turn is running; cancel it before rewinding.");
    const conn = await this.connection();
    if (!this.canRewind(conn)) throw new Error("This agent cannot rewind a conversation.");
    const resp = (await conn.agent.request(REWIND_METHOD, { sessionId: s.sessionId, prompt, restoreFiles: true })) as RewindResponse;
    if (!resp || typeof resp.sessionId !== "string") throw new Error("The agent answered the rewind without a session.");
    await this.loadSession(resp.sessionId).catch((err) => {
      throw new Error(`The files were restored, but the rewound conversation could not be shown: ${errorText(err)}`);
    });
    // A reload brings the fork back, also when it has no prompt yet (a rewind to the first one).
    this.opts.lastSession?.set(resp.sessionId);
    const { text, mentions } = promptParts(resp.prompt ?? []);
    this.editor.post({ type: "rewound", sessionId: resp.sessionId, text, mentions, restored: resp.restored ?? [] });
  }

  // ---- turns ----

  /** prompt sends the user's message (creating a session when there is none). */
  async prompt(text: string, mentions: FileMention[], images: ImageAttachment[] = []): Promise<void> {
    let conn: AgentConnection;
    let s: SessionState;
    let blocks: acp.ContentBlock[];
    try {
      // A prompt typed while the agent starts (and the last session is
      // restored) waits for that, and goes to the restored session.
      conn = await this.connection();
      await this.startup;
      if (!this.session) await this.freshSession();
      if (this.running.has(this.session!.sessionId)) throw new Error("A turn is already running; cancel it first.");
      conn = await this.connection();
      s = this.session!;
      const refused = checkImages(images, this.acceptsImages(conn));
      if (refused) throw new Error(refused);
      blocks = await buildPrompt(text, mentions, (p) => this.editor.openDocumentText(p), images);
    } catch (err) {
      // The reason the agent is down is on the banner already: the box says it short.
      const down = !this.supervisor.connection && this.status.state === "error";
      throw new PromptNotDelivered(down ? "companion is not running." : errorText(authHintText(err)));
    }
    for (const u of userMessageUpdates(text, mentions, images)) this.record(s.sessionId, u);
    this.opts.lastSession?.set(s.sessionId);
    await this.context.flush(false);
    this.setTurn({ type: "turn", sessionId: s.sessionId, state: "running" });
    try {
      const resp = await conn.agent.request(acp.methods.agent.session.prompt, { sessionId: s.sessionId, prompt: blocks });
      this.setTurn({ type: "turn", sessionId: s.sessionId, state: "idle", stopReason: resp.stopReason });
    } catch (err) {
      this.setTurn({ type: "turn", sessionId: s.sessionId, state: "idle", error: errorText(authHintText(err)) });
    }
    await this.refreshStats(s.sessionId);
  }

  /**
   * sessionStats fetches the current session's figures (undefined when
   * there is no session or the agent does not offer STATS_METHOD).
   */
  async sessionStats(): Promise<SessionStats | undefined> {
    const id = this.session?.sessionId;
    return id ? this.refreshStats(id) : undefined;
  }

  /** refreshStats fetches a session's figures and shows them in the status bar's tooltip. */
  private async refreshStats(sessionId: string): Promise<SessionStats | undefined> {
    const conn = this.supervisor.connection;
    if (!conn || !advertisesStats(conn.initialize.agentCapabilities?._meta)) return undefined;
    try {
      const resp = await conn.agent.request(STATS_METHOD, { sessionId });
      if (!isStats(resp)) throw new Error("the agent's answer has no figures");
      this.stats = { ...resp, sessionId };
      this.showStatus();
      return this.stats;
    } catch (err) {
      this.editor.log(`session stats: ${errorText(err)}`);
      return undefined;
    }
  }

  /** showStatus shows the agent state, the context usage and the current session's figures. */
  private showStatus(): void {
    const current = this.session?.sessionId;
    const stats = this.stats && this.stats.sessionId === current ? this.stats : undefined;
    const usage = this.usage && this.usage.sessionId === current ? this.usage.value : undefined;
    this.editor.showStatus({ state: this.status.state, message: this.status.message, usage, stats });
  }

  private setTurn(msg: ToWebview & { type: "turn" }): void {
    if (msg.state === "running") this.running.add(msg.sessionId);
    else this.running.delete(msg.sessionId);
    this.cancelling.delete(msg.sessionId);
    if (msg.sessionId === this.session?.sessionId) this.editor.post(msg);
  }

  /** cancel stops the current session's turn: session/cancel, and its open permission requests answered "cancelled". */
  async cancel(): Promise<void> {
    const sessionId = this.session?.sessionId;
    if (!sessionId) return;
    if (this.running.has(sessionId)) this.cancelling.add(sessionId);
    this.permissions.cancelSession(sessionId);
    const conn = this.supervisor.connection;
    await conn?.agent.notify(acp.methods.agent.session.cancel, { sessionId });
  }

  private async setConfigOption(configId: string, value: string): Promise<void> {
    const s = this.requireSession();
    const conn = await this.connection();
    const resp = await conn.agent.request(acp.methods.agent.session.setConfigOption, { sessionId: s.sessionId, configId, value });
    this.onUpdate({ sessionId: s.sessionId, update: { sessionUpdate: "config_option_update", configOptions: resp.configOptions } });
  }

  private async setMode(modeId: string): Promise<void> {
    const s = this.requireSession();
    const conn = await this.connection();
    await conn.agent.request(acp.methods.agent.session.setMode, { sessionId: s.sessionId, modeId });
    this.onUpdate({ sessionId: s.sessionId, update: { sessionUpdate: "current_mode_update", currentModeId: modeId } });
  }

  // ---- agent → client ----

  private clientHandlers(): ClientHandlers {
    const t = this.terminals;
    return {
      sessionUpdate: (n) => this.onUpdate(n),
      requestPermission: (p, signal) => this.permissions.request(p, signal),
      readTextFile: (p) => readTextFile(this.editor, p),
      writeTextFile: (p) => writeTextFile(this.editor, p),
      createTerminal: (p) => t.create(p),
      terminalOutput: (p) => t.output(p),
      waitForTerminalExit: (p) => t.waitForExit(p),
      killTerminal: (p) => t.kill(p),
      releaseTerminal: (p) => {
        const r = t.release(p);
        this.terminalReleased(p.terminalId);
        return r;
      },
      createElicitation: (p, signal) => askForm(this.editor, p, signal),
      language: async (p) => (this.editor.language ? this.editor.language(p) : { available: false }),
    };
  }

  private onUpdate({ sessionId, update: raw }: acp.SessionNotification): void {
    const update = cleanInfo(this.withOutcome(sessionId, raw));
    if (this.loading?.sessionId === sessionId) {
      this.loading.buffer.push(update);
      return;
    }
    if (this.session?.sessionId === sessionId) applyToState(this.session, update);
    if (update.sessionUpdate === "session_info_update" && update.title) this.titles.set(sessionId, update.title);
    if (update.sessionUpdate === "usage_update") {
      this.usage = { sessionId, value: { used: update.used, size: update.size } };
      this.showStatus();
    }
    this.record(sessionId, update);
    if (update.sessionUpdate === "tool_call" || update.sessionUpdate === "tool_call_update") {
      for (const c of update.content ?? []) {
        if (c.type !== "terminal" || this.terminalCalls.has(c.terminalId) || !this.terminals.live(c.terminalId)) continue;
        this.terminalCalls.set(c.terminalId, { sessionId, toolCallId: update.toolCallId });
        this.terminalChanged(c.terminalId); // it may have printed, or ended, already
      }
    }
  }

  /**
   * terminalChanged shows a command's last lines on its tool call card: a
   * tool_call_update of that call carrying `_meta.companion.terminalOutput`
   * (the final one kept in the transcript like any update, so a replay shows it too).
   */
  private terminalChanged(terminalId: string): void {
    const call = this.terminalCalls.get(terminalId);
    const card = this.terminals.card(terminalId);
    if (!call || !card || (!card.tail && !card.exit)) return;
    const update: acp.SessionUpdate = {
      sessionUpdate: "tool_call_update",
      toolCallId: call.toolCallId,
      _meta: { companion: { terminalOutput: { terminalId, tail: card.tail, exit: card.exit } } },
    };
    if (!card.exit) {
      // Live lines are only shown; the transcript keeps the final ones (a long command would fill it).
      if (call.sessionId === this.session?.sessionId) this.editor.post({ type: "update", sessionId: call.sessionId, update });
      return;
    }
    this.record(call.sessionId, update);
    if (call.released) this.terminalCalls.delete(terminalId);
  }

  /** terminalReleased forgets a released terminal's call once its end is on the card (a kill on release ends it a moment later). */
  private terminalReleased(terminalId: string): void {
    const call = this.terminalCalls.get(terminalId);
    if (!call) return;
    if (this.terminals.card(terminalId)?.exit) this.terminalCalls.delete(terminalId);
    else call.released = true;
  }

  /** changedThisSession: path is a file an edit of the current session changed (changes.ts). */
  private changedThisSession(path: string): boolean {
    const id = this.session?.sessionId;
    return !!id && changedIn(this.transcript.updates(id), path);
  }

  /** revertChanges puts the turn's files back (the "changed this turn" list's Revert). */
  private async revertChanges(files: { path: string; oldText: string | null }[]): Promise<void> {
    const failed = await revertFiles(this.editor, files.filter((f) => this.changedThisSession(f.path)));
    if (failed.length) this.editor.post({ type: "error", message: `Could not revert ${failed.join("; ")}` });
  }

  /** trackedTerminals is how many terminals' calls are kept (tests check the pruning). */
  get trackedTerminals(): number {
    return this.terminalCalls.size;
  }

  /**
   * withOutcome marks a failed tool call the user refused (rejected its
   * request, dismissed it, or cancelled the turn) with
   * `_meta.companion.outcome`, unless the agent said so already: a user's
   * decision is not shown as a failure.
   */
  private withOutcome(sessionId: string, u: acp.SessionUpdate): acp.SessionUpdate {
    if (u.sessionUpdate !== "tool_call_update" || u.status !== "failed") return u;
    const meta = (u._meta ?? {}) as { companion?: Record<string, unknown> };
    if (meta.companion?.outcome) return u;
    const outcome = this.permissions.outcome(u.toolCallId) ?? (this.cancelling.has(sessionId) ? "cancelled" : undefined);
    if (!outcome) return u;
    return { ...u, _meta: { ...meta, companion: { ...meta.companion, outcome } } };
  }

  /** record keeps an update and shows it when its session is current. */
  private record(sessionId: string, update: acp.SessionUpdate): void {
    this.transcript.add(sessionId, update);
    if (sessionId === this.session?.sessionId) this.editor.post({ type: "update", sessionId, update });
  }

  // ---- agent lifecycle ----

  private onConnected(conn: AgentConnection, restarted: boolean): Promise<void> {
    this.opts.mark?.("agent ready");
    const p = this.firstSession(conn, restarted);
    const startup: Promise<void> = p.catch(() => {}).finally(() => {
      if (this.startup === startup) this.startup = undefined;
    });
    this.startup = startup;
    return p;
  }

  private async firstSession(conn: AgentConnection, restarted: boolean): Promise<void> {
    // What the editor shows, workspace trust with it, reaches the agent
    // before any session: a session of an untrusted window opens untrusted.
    await this.context.flush(true);
    const s = this.session;
    if (!s) {
      // The conversation open before the window reloaded comes back; else a
      // session right away, so the chat shows its modes, models and commands.
      if (await this.restoreLast()) return;
      await this.freshSession().catch((e) => this.editor.post({ type: "error", message: errorText(e) }));
      return;
    }
    if (!restarted) return;
    // Pick the conversation up again in the new process; the transcript is ours.
    try {
      const resp = await conn.agent.request(acp.methods.agent.session.resume, { sessionId: s.sessionId, cwd: s.cwd, ...this.roots(), mcpServers: [] });
      this.becomeCurrent({ ...s, modes: resp.modes ?? s.modes, configOptions: resp.configOptions ?? s.configOptions });
    } catch (err) {
      this.editor.log(`cannot resume session ${s.sessionId} after the restart: ${errorText(err)}`);
      this.session = undefined;
      await this.freshSession().catch((e) => this.editor.post({ type: "error", message: errorText(e) }));
    }
  }

  /** restoreLast loads the session the chat showed before a reload; false when there is none or it cannot be loaded. */
  private async restoreLast(): Promise<boolean> {
    const id = this.opts.lastSession?.get();
    if (!id) return false;
    try {
      await this.loadSession(id);
      this.opts.mark?.("session restored");
      return true;
    } catch (err) {
      this.editor.log(`cannot restore session ${id}: ${errorText(err)}`);
      this.opts.lastSession?.set(undefined);
      return false;
    }
  }

  private onDied(message: string): void {
    this.permissions.cancelAll();
    this.terminals.disposeAll();
    this.terminalCalls.clear();
    this.loading = undefined;
    for (const sessionId of [...this.running]) this.setTurn({ type: "turn", sessionId, state: "idle", error: message });
    this.editor.post({ type: "error", message });
  }

  /** canRewind: the agent advertised `agentCapabilities._meta.companion.rewind`. */
  private canRewind(conn: AgentConnection | undefined = this.supervisor.connection): boolean {
    const meta = conn?.initialize.agentCapabilities?._meta as { companion?: { rewind?: unknown } } | null | undefined;
    return meta?.companion?.rewind === true;
  }

  /** acceptsImages: the agent advertised promptCapabilities.image. */
  private acceptsImages(conn: AgentConnection | undefined = this.supervisor.connection): boolean {
    return conn?.initialize.agentCapabilities?.promptCapabilities?.image === true;
  }

  private setStatus(state: AgentState, message?: string, agent?: { name: string; version?: string }): void {
    this.status = { state, message, agent: agent ?? (state === "ready" ? undefined : this.status.agent) };
    this.editor.post({ type: "status", state, message, agent: this.status.agent, acceptsImages: this.acceptsImages(), canRewind: this.canRewind() });
    this.showStatus();
  }

  /** replayAll re-sends everything to a webview that (re)loaded. */
  private async replayAll(): Promise<void> {
    const { state, message, agent } = this.status;
    this.editor.post({ type: "status", state, message, agent, acceptsImages: this.acceptsImages(), canRewind: this.canRewind() });
    await this.startup;
    if (!this.session && this.status.state === "ready") await this.newSession();
    else this.postSession();
  }

  private async connection(): Promise<AgentConnection> {
    await this.supervisor.start();
    const conn = this.supervisor.connection;
    if (!conn) throw new Error(this.status.message ?? "companion is not running.");
    return conn;
  }

  /** roots is the additionalDirectories field, present only when there are any. */
  private roots(): { additionalDirectories?: string[] } {
    const dirs = this.opts.additionalDirectories?.() ?? [];
    return dirs.length > 0 ? { additionalDirectories: dirs } : {};
  }

  private requireSession(): SessionState {
    if (!this.session) throw new Error("No session yet: send a prompt first.");
    return this.session;
  }

  private async notifyContext(params: object): Promise<void> {
    const conn = this.supervisor.connection;
    if (!conn) throw new Error("no agent");
    await conn.agent.notify(IDE_CONTEXT_METHOD, params);
  }
}

/** cleanInfo shows a session title as plain words (no markdown, one line). */
function cleanInfo(u: acp.SessionUpdate): acp.SessionUpdate {
  if (u.sessionUpdate !== "session_info_update" || !u.title) return u;
  return { ...u, title: cleanTitle(u.title) || null };
}

/** applyToState folds state-carrying updates into a session's state. */
function applyToState(s: SessionState, u: acp.SessionUpdate): void {
  if (u.sessionUpdate === "session_info_update" && u.title !== undefined) s.title = u.title;
  else if (u.sessionUpdate === "config_option_update") s.configOptions = u.configOptions;
  else if (u.sessionUpdate === "current_mode_update" && s.modes) s.modes = { ...s.modes, currentModeId: u.currentModeId };
}

/**
 * promptParts turns a rewound prompt's blocks back into what the prompt box
 * holds: the text blocks, and the files as mentions (links and embedded
 * resources; the text of an embedded file is re-read when it is sent again).
 */
export function promptParts(blocks: acp.ContentBlock[]): { text: string; mentions: FileMention[] } {
  let text = "";
  const mentions: FileMention[] = [];
  for (const b of blocks) {
    if (b.type === "text") text += b.text;
    else if (b.type === "resource_link") mentions.push({ uri: b.uri, label: b.name || b.uri });
    else if (b.type === "resource") mentions.push({ uri: b.resource.uri, label: b.resource.uri.split("/").pop() || b.resource.uri });
  }
  return { text, mentions };
}

/** PromptNotDelivered: the prompt never reached the agent (no agent, no session, a turn running). */
export class PromptNotDelivered extends Error {}

/** errorText makes a message of anything thrown (RequestError keeps its message). */
export function errorText(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (err && typeof err === "object" && "message" in err) return String((err as { message: unknown }).message);
  return String(err);
}

function authHintText(err: unknown): unknown {
  if (err instanceof acp.RequestError && err.code === AUTH_REQUIRED) {
    return new Error(`${err.message}. Run "Companion: Set API Key" to store a key.`);
  }
  return err;
}

function authHint(err: unknown): never {
  throw authHintText(err);
}
