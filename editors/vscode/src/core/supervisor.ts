// The agent process lifecycle: start, restart when it dies (with the error
// shown and a growing delay), stop. A child that keeps crashing is left
// stopped with its error until the user restarts it.

import { AgentConnection, describeExit, type ClientHandlers, type LaunchSpec } from "./connection";
import type { Tracer } from "./trace";

/** Agent states, as shown in the webview header and the status bar. */
export type AgentState = "starting" | "ready" | "restarting" | "error" | "stopped";

/** What the supervisor reports. */
export interface SupervisorEvents {
  status(state: AgentState, message?: string, agent?: { name: string; version?: string }): void;
  /** A new connection is initialized (first start or restart). */
  connected(conn: AgentConnection, restarted: boolean): Promise<void>;
  /** The connection died; everything tied to it must be dropped. */
  died(message: string): void;
}

/** Delays before successive automatic restarts; past the last one we give up. */
export const DEFAULT_RESTART_DELAYS_MS = [250, 1000, 2000, 4000, 8000];
/** Crashes further apart than this reset the backoff. */
const CRASH_WINDOW_MS = 60_000;

/** AgentSupervisor owns the current AgentConnection. */
export class AgentSupervisor {
  private conn: AgentConnection | undefined;
  private crashes: number[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private starting: Promise<void> | undefined;
  private disposed = false;

  constructor(
    private readonly launch: () => Promise<LaunchSpec>,
    private readonly handlers: ClientHandlers,
    private readonly events: SupervisorEvents,
    private readonly log: (line: string) => void,
    private readonly timing: { delaysMs?: number[]; initializeTimeoutMs?: number; tracer?: () => Tracer | undefined } = {},
  ) {}

  /** connection is the live connection, if any. */
  get connection(): AgentConnection | undefined {
    return this.conn;
  }

  /** start connects unless already connected or connecting. */
  start(): Promise<void> {
    if (this.conn) return Promise.resolve();
    this.starting ??= this.connect(false).finally(() => (this.starting = undefined));
    return this.starting;
  }

  /** restart stops the current process (if any) and starts a new one; the crash count is reset. */
  async restart(): Promise<void> {
    this.crashes = [];
    this.clearTimer();
    await this.starting;
    await this.stopCurrent();
    this.starting = this.connect(true).finally(() => (this.starting = undefined));
    return this.starting;
  }

  /** stop ends the process for good (deactivate). */
  async stop(): Promise<void> {
    this.disposed = true;
    this.clearTimer();
    await this.starting?.catch(() => {});
    await this.stopCurrent();
    this.events.status("stopped");
  }

  private async connect(restarted: boolean, why?: string): Promise<void> {
    if (this.disposed) return;
    this.events.status(restarted ? "restarting" : "starting", why);
    let conn: AgentConnection;
    try {
      const spec = await this.launch();
      this.log(`starting ${spec.command} ${spec.args.join(" ")} in ${spec.cwd}`);
      conn = await AgentConnection.start(spec, this.handlers, this.log, this.timing.initializeTimeoutMs, this.timing.tracer?.());
    } catch (err) {
      const message = (err as Error).message;
      this.log(message);
      this.events.status("error", message);
      return;
    }
    if (this.disposed) {
      await conn.stop();
      return;
    }
    this.conn = conn;
    void conn.exited.then(() => this.onExit(conn));
    const info = conn.initialize.agentInfo;
    this.events.status("ready", undefined, info ? { name: info.name, version: info.version } : undefined);
    await this.events.connected(conn, restarted);
  }

  private onExit(conn: AgentConnection): void {
    if (this.conn === conn) this.conn = undefined;
    if (conn.isStopping || this.disposed) return;
    void conn.exited.then((e) => {
      const tail = conn.stderrTail();
      const message = `companion stopped unexpectedly (${describeExit(e)})${tail ? `: ${tail}` : ""}`;
      this.log(message);
      this.events.died(message);
      this.scheduleRestart(message);
    });
  }

  private scheduleRestart(message: string): void {
    const now = Date.now();
    this.crashes = this.crashes.filter((t) => now - t < CRASH_WINDOW_MS);
    this.crashes.push(now);
    const delay = (this.timing.delaysMs ?? DEFAULT_RESTART_DELAYS_MS)[this.crashes.length - 1];
    if (delay === undefined) {
      this.events.status("error", `${message}\nIt keeps crashing; run "Companion: Restart Agent" to try again.`);
      return;
    }
    this.events.status("restarting", message);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.starting = this.connect(true, message).finally(() => (this.starting = undefined));
    }, delay);
  }

  private async stopCurrent(): Promise<void> {
    const c = this.conn;
    this.conn = undefined;
    if (c) await c.stop();
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
