// The client side of ACP terminal/*: each terminal/create runs a process
// here, streams its output live into a terminal view the user sees (a VS
// Code Pseudoterminal), and keeps the output the agent reads, capped at the
// request's outputByteLimit by dropping the oldest bytes.

import { spawn, type ChildProcess } from "node:child_process";
import * as acp from "@agentclientprotocol/sdk";
import type { Editor, TerminalView } from "./editor";

/** One running or finished command. */
class Terminal {
  private output = "";
  private truncated = false;
  private exit: acp.TerminalExitStatus | null = null;
  private readonly exitedPromise: Promise<acp.TerminalExitStatus>;

  constructor(
    private readonly child: ChildProcess,
    private readonly view: TerminalView,
    private readonly limit: number | null,
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
    this.output += s;
    if (this.limit !== null && Buffer.byteLength(this.output, "utf8") > this.limit) {
      this.output = keepTail(this.output, this.limit);
      this.truncated = true;
    }
  }

  private finish(status: acp.TerminalExitStatus, resolve: (s: acp.TerminalExitStatus) => void): void {
    if (this.exit) return;
    this.exit = status;
    this.view.exited(status.signal ? `killed by ${status.signal}` : `exit code ${status.exitCode}`);
    resolve(status);
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

/** Terminals implements terminal/* for one agent connection. */
export class Terminals {
  private readonly byId = new Map<string, Terminal>();
  private next = 1;

  constructor(private readonly editor: Editor) {}

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
    const label = [req.command, ...(req.args ?? [])].join(" ");
    const view = this.editor.createTerminalView(`companion: ${shorten(label)}`, () => this.byId.get(id)?.kill());
    view.write(`$ ${label}\n`);
    this.byId.set(id, new Terminal(child, view, req.outputByteLimit ?? null));
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
