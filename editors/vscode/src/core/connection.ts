// One run of the `companion acp` child process and its ACP connection,
// through the official client library (@agentclientprotocol/sdk). The
// controller owns the lifecycle (restart on death); this file only starts,
// connects, initializes and stops one process.

import { spawn, type ChildProcess } from "node:child_process";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import { lastLines } from "./terminals";
import { traceStream, type Tracer } from "./trace";
import { LANGUAGE_METHOD, parseLanguageRequest, type LanguageAnswer, type LanguageRequest } from "./language";

/** How to start the agent. */
export interface LaunchSpec {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/** What the agent may call on us. */
export interface ClientHandlers {
  sessionUpdate(params: acp.SessionNotification): void;
  requestPermission(params: acp.RequestPermissionRequest, signal: AbortSignal): Promise<acp.RequestPermissionResponse>;
  readTextFile(params: acp.ReadTextFileRequest): Promise<acp.ReadTextFileResponse>;
  writeTextFile(params: acp.WriteTextFileRequest): Promise<acp.WriteTextFileResponse>;
  createTerminal(params: acp.CreateTerminalRequest): acp.CreateTerminalResponse;
  terminalOutput(params: acp.TerminalOutputRequest): acp.TerminalOutputResponse;
  waitForTerminalExit(params: acp.WaitForTerminalExitRequest): Promise<acp.WaitForTerminalExitResponse>;
  killTerminal(params: acp.KillTerminalRequest): acp.KillTerminalResponse;
  releaseTerminal(params: acp.ReleaseTerminalRequest): acp.ReleaseTerminalResponse;
  createElicitation(params: acp.CreateElicitationRequest, signal: AbortSignal): Promise<acp.CreateElicitationResponse>;
  /** companion's LANGUAGE_METHOD: an LSP request answered by the editor's own language features. */
  language(params: LanguageRequest): Promise<LanguageAnswer>;
}

/** How the process ended. */
export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * The capabilities we advertise: fs through the editor, terminals, forms
 * (quick picks and input boxes), and companion's LANGUAGE_METHOD (VS Code's
 * language features answer companion's language questions).
 */
export const CLIENT_CAPABILITIES: acp.ClientCapabilities = {
  fs: { readTextFile: true, writeTextFile: true },
  terminal: true,
  elicitation: { form: {} },
  _meta: { companion: { lsp: true } },
};

const STDERR_TAIL_BYTES = 4096;
const KILL_GRACE_MS = 2000;
/** DEFAULT_INITIALIZE_TIMEOUT_MS bounds the wait for initialize: a binary that is not companion may never answer. */
export const DEFAULT_INITIALIZE_TIMEOUT_MS = 20_000;

/** AgentConnection is one live `companion acp` process. */
export class AgentConnection {
  /** Settles when the process has exited (for any reason). */
  readonly exited: Promise<ExitInfo>;
  private stderr = "";
  private stopping = false;

  private constructor(
    private readonly child: ChildProcess,
    private readonly connection: acp.ClientConnection,
    readonly initialize: acp.InitializeResponse,
    exited: Promise<ExitInfo>,
  ) {
    this.exited = exited;
  }

  /** agent calls agent-side ACP methods. */
  get agent(): acp.ClientContext {
    return this.connection.agent;
  }

  /** stopping is true once stop() was called: the exit that follows is expected. */
  get isStopping(): boolean {
    return this.stopping;
  }

  /**
   * start spawns the agent, connects and initializes. It rejects with a
   * readable message when the binary is missing or dies before answering.
   */
  static async start(
    spec: LaunchSpec,
    handlers: ClientHandlers,
    log: (line: string) => void,
    initializeTimeoutMs = DEFAULT_INITIALIZE_TIMEOUT_MS,
    tracer?: Tracer,
  ): Promise<AgentConnection> {
    const child = spawn(spec.command, spec.args, { cwd: spec.cwd, env: spec.env, stdio: ["pipe", "pipe", "pipe"] });
    const tail = { text: "" };
    child.stderr!.setEncoding("utf8").on("data", (s: string) => {
      for (const line of s.split("\n")) if (line.trim()) log(`[agent] ${line}`);
      tail.text = (tail.text + s).slice(-STDERR_TAIL_BYTES);
    });
    child.stdin!.on("error", () => {}); // EPIPE after a crash: the exit reports it
    const exited = new Promise<ExitInfo>((resolve) => child.on("close", (code, signal) => resolve({ code, signal })));
    const spawnFailed = new Promise<never>((_, reject) =>
      child.on("error", (err) => reject(new Error(spawnError(spec.command, err)))),
    );
    const connection = connectClient(child, handlers, tracer);
    const diedEarly = exited.then((e) => {
      throw new Error(`companion exited before it answered initialize (${describeExit(e)})${tail.text ? `: ${lastLines(tail.text.trim(), 5)}` : ""}`);
    });
    const init = connection.agent.request(acp.methods.agent.initialize, {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: CLIENT_CAPABILITIES,
      clientInfo: { name: "companion-vscode", title: "Companion for VS Code", version: "0.1.0" },
    });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`${spec.command} did not answer initialize within ${initializeTimeoutMs} ms: is it the companion binary?`)),
        initializeTimeoutMs,
      );
    });
    try {
      const result = await Promise.race([init, spawnFailed, diedEarly, timedOut]);
      const c = new AgentConnection(child, connection, result, exited);
      c.stderr = tail.text;
      child.stderr!.on("data", () => (c.stderr = tail.text));
      return c;
    } catch (err) {
      connection.close();
      child.kill("SIGKILL");
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }

  /** stderrTail is the last few lines the agent wrote to stderr (for an error message). */
  stderrTail(): string {
    return lastLines(this.stderr.trim(), 5);
  }

  /** stop ends the process: stdin closed and SIGTERM, then SIGKILL after a grace period. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.connection.close();
    this.child.stdin?.end();
    this.child.kill("SIGTERM");
    const timer = setTimeout(() => this.child.kill("SIGKILL"), KILL_GRACE_MS);
    await this.exited;
    clearTimeout(timer);
  }

  /** pid of the child (tests kill it to check the restart). */
  get pid(): number | undefined {
    return this.child.pid;
  }
}

function connectClient(child: ChildProcess, h: ClientHandlers, tracer?: Tracer): acp.ClientConnection {
  const m = acp.methods.client;
  const app = acp
    .client({ name: "companion-vscode" })
    .onNotification(m.session.update, ({ params }) => h.sessionUpdate(params))
    .onRequest(m.session.requestPermission, ({ params, signal }) => h.requestPermission(params, signal))
    .onRequest(m.fs.readTextFile, ({ params }) => h.readTextFile(params))
    .onRequest(m.fs.writeTextFile, ({ params }) => h.writeTextFile(params))
    .onRequest(m.terminal.create, ({ params }) => h.createTerminal(params))
    .onRequest(m.terminal.output, ({ params }) => h.terminalOutput(params))
    .onRequest(m.terminal.waitForExit, ({ params }) => h.waitForTerminalExit(params))
    .onRequest(m.terminal.kill, ({ params }) => h.killTerminal(params))
    .onRequest(m.terminal.release, ({ params }) => h.releaseTerminal(params))
    .onRequest(m.elicitation.create, ({ params, signal }) => h.createElicitation(params, signal))
    .onRequest(LANGUAGE_METHOD, parseLanguageRequest, ({ params }) => h.language(params));
  const input = Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>;
  const output = Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>;
  const stream = acp.ndJsonStream(output, input);
  return app.connect(tracer ? traceStream(stream, tracer) : stream);
}

/** describeExit says how a process ended, in words. */
export function describeExit(e: ExitInfo): string {
  return e.signal ? `killed by ${e.signal}` : `exit code ${e.code}`;
}


/**
 * spawnError says why the agent binary did not start, in the user's words:
 * a missing file or one that cannot be run, and what to set.
 */
export function spawnError(command: string, err: NodeJS.ErrnoException): string {
  const fix = "Set companion.path to the companion binary, or leave it empty to use the one shipped with the extension.";
  switch (err.code) {
    case "ENOENT":
      return `Cannot start companion: ${command} does not exist. ${fix}`;
    case "EACCES":
      return `Cannot start companion: ${command} is not an executable file. ${fix}`;
    default:
      return `Cannot start companion (${command}): ${err.message}. ${fix}`;
  }
}
