// The client side of ACP terminal/*: each terminal/create runs a process
// here, streams its output live into a terminal view the user sees (a VS
// Code Pseudoterminal), and keeps the output the agent reads, capped at the
// request's outputByteLimit by dropping the oldest bytes.

import { spawn, type ChildProcess } from "node:child_process";
import * as acp from "@agentclientprotocol/sdk";
import type { Editor, TerminalView } from "./editor";

/** TAIL_BYTES is how much of a command's latest output its chat card can show. */
const TAIL_BYTES = 4096;
/** TAIL_LINES is how many of the last lines the card shows. */
export const TAIL_LINES = 8;
/** CHANGE_DELAY_MS spaces the card's output refreshes while a command prints. */
const CHANGE_DELAY_MS = 300;

/** What the chat card of a command shows: its last lines, and how it ended. */
export interface TerminalTail {
  tail: string;
  exit: string | null;
}

/** One running or finished command. */
class Terminal {
  private output = "";
  private truncated = false;
  private exit: acp.TerminalExitStatus | null = null;
  /** The latest output for the chat card (never capped by the agent's limit). */
  recent = "";
  exitSummary: string | null = null;
  private changeTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly exitedPromise: Promise<acp.TerminalExitStatus>;

  constructor(
    private readonly child: ChildProcess,
    private readonly view: TerminalView,
    private readonly limit: number | null,
    private readonly changed: () => void = () => {},
  ) {
    this.exitedPromise = new Promise((resolve) => {
      child.on("error", (err) => {
        this.append(`${err.message}\n`);
        this.finish({ exitCode: 127, signal: null }, resolve);
      });
      child.on("close", (code, signal) => this.finish({ exitCode: code, signal: signal ?? null }, resolve));
    });
    child.stdout?.setEncoding("utf8").on("data", (s: string) => this.append(s));
    child.stderr?.setEncoding("utf8").on("data", (s: string) => this.append(s));
  }

  private append(s: string): void {
    this.view.write(s);
    this.recent = keepTail(this.recent + s, TAIL_BYTES);
    this.changeTimer ??= setTimeout(() => {
      this.changeTimer = undefined;
      if (!this.exit) this.changed();
    }, CHANGE_DELAY_MS);
    this.output += s;
    if (this.limit !== null && Buffer.byteLength(this.output, "utf8") > this.limit) {
      this.output = keepTail(this.output, this.limit);
      this.truncated = true;
    }
  }

  private finish(status: acp.TerminalExitStatus, resolve: (s: acp.TerminalExitStatus) => void): void {
    if (this.exit) return;
    this.exit = status;
    this.exitSummary = status.signal ? `killed by ${status.signal}` : `exit code ${status.exitCode}`;
    this.view.exited(this.exitSummary);
    clearTimeout(this.changeTimer);
    this.changeTimer = undefined;
    resolve(status);
    this.changed();
  }

  /** snapshot answers terminal/output. */
  snapshot(): acp.TerminalOutputResponse {
    return { output: this.output, truncated: this.truncated, exitStatus: this.exit };
  }

  /** waitForExit answers terminal/wait_for_exit. */
  async waitForExit(): Promise<acp.WaitForTerminalExitResponse> {
    const s = await this.exitedPromise;
    return { exitCode: s.exitCode, signal: s.signal };
  }

  /** card is what the chat card shows of this command. */
  card(): TerminalTail {
    return { tail: lastLines(this.recent, TAIL_LINES), exit: this.exitSummary };
  }

  /** show brings the view to the front. */
  show(): void {
    this.view.show();
  }

  /** kill ends the whole process group (the command and its children). */
  kill(): void {
    if (this.exit || this.child.pid === undefined) return;
    try {
      process.kill(-this.child.pid, "SIGKILL");
    } catch {
      this.child.kill("SIGKILL");
    }
  }
}

/** keepTail returns the last at most maxBytes of UTF-8 of s, on a character boundary. */
export function keepTail(s: string, maxBytes: number): string {
  const bytes = Buffer.from(s, "utf8");
  if (bytes.length <= maxBytes) return s;
  let start = bytes.length - maxBytes;
  while (start < bytes.length && (bytes[start] & 0xc0) === 0x80) start++;
  return bytes.subarray(start).toString("utf8");
}

/** lastLines returns the last n lines of s as a terminal leaves them: no colour codes, a line rewritten after \r shows its last text. */
export function lastLines(s: string, n: number): string {
  const plain = s.replace(/\x1b\[[0-9;?]*[ -/]*[@-~]/g, "").replace(/\x1b\][^\x07\x1b]*(\x07|\x1b\\)/g, "");
  const lines = plain.replace(/\r+\n/g, "\n").replace(/\n$/, "").split("\n").map((l) => l.slice(l.lastIndexOf("\r") + 1));
  return lines.slice(-n).join("\n");
}

/** shellQuote writes a command line as a POSIX shell would need to read it back. */
export function shellQuote(words: string[]): string {
  return words.map((w) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)).join(" ");
}

/** KEEP_FINISHED is how many released terminals stay known for their chat cards. */
const KEEP_FINISHED = 100;

/** Terminals implements terminal/* for one agent connection. */
export class Terminals {
  private readonly byId = new Map<string, Terminal>();
  /** Every terminal still shown (released ones too), for the chat cards. */
  private readonly shown = new Map<string, Terminal>();
  private next = 1;

  /** changed is called when a command printed (throttled) or ended. */
  constructor(
    private readonly editor: Editor,
    private readonly changed: (terminalId: string) => void = () => {},
  ) {}

  /** card is what the chat card of a terminal shows, while the terminal is known. */
  card(terminalId: string): TerminalTail | undefined {
    return this.shown.get(terminalId)?.card();
  }

  /** focus brings a terminal's view to the front; false when it is gone. */
  focus(terminalId: string): boolean {
    const t = this.shown.get(terminalId);
    t?.show();
    return !!t;
  }

  /** create answers terminal/create: starts the command and shows it. */
  create(req: acp.CreateTerminalRequest): acp.CreateTerminalResponse {
    const id = `term-${this.next++}`;
    const env = { ...process.env };
    for (const v of req.env ?? []) env[v.name] = v.value;
    const child = spawn(req.command, req.args ?? [], {
      cwd: req.cwd ?? undefined,
      env,
      detached: true, // its own process group, so kill reaches grandchildren
      stdio: ["ignore", "pipe", "pipe"],
    });
    const label = shellQuote([req.command, ...(req.args ?? [])]);
    const view = this.editor.createTerminalView(`companion: ${shorten(label)}`, () => this.byId.get(id)?.kill());
    view.write(`$ ${label}\n`);
    const term = new Terminal(child, view, req.outputByteLimit ?? null, () => this.changed(id));
    this.byId.set(id, term);
    this.shown.set(id, term);
    if (this.shown.size > KEEP_FINISHED) this.shown.delete(this.shown.keys().next().value!);
    return { terminalId: id };
  }

  /** output answers terminal/output. */
  output(req: acp.TerminalOutputRequest): acp.TerminalOutputResponse {
    return this.get(req.terminalId).snapshot();
  }

  /** waitForExit answers terminal/wait_for_exit. */
  waitForExit(req: acp.WaitForTerminalExitRequest): Promise<acp.WaitForTerminalExitResponse> {
    return this.get(req.terminalId).waitForExit();
  }

  /** kill answers terminal/kill; the terminal stays readable. */
  kill(req: acp.KillTerminalRequest): acp.KillTerminalResponse {
    this.get(req.terminalId).kill();
    return {};
  }

  /**
   * release answers terminal/release: kills a command still running and
   * forgets the id. The view stays so the user can still read the output.
   */
  release(req: acp.ReleaseTerminalRequest): acp.ReleaseTerminalResponse {
    this.get(req.terminalId).kill();
    this.byId.delete(req.terminalId);
    return {};
  }

  /** live tells whether the agent still holds a terminal (created, not released). */
  live(terminalId: string): boolean {
    return this.byId.has(terminalId);
  }

  /** disposeAll kills every command (the agent went away). */
  disposeAll(): void {
    for (const t of this.byId.values()) t.kill();
    this.byId.clear();
  }

  private get(id: string): Terminal {
    const t = this.byId.get(id);
    if (!t) throw acp.RequestError.resourceNotFound(id);
    return t;
  }
}

function shorten(s: string): string {
  return s.length > 40 ? `${s.slice(0, 39)}…` : s;
}
