// Terminals: the client side of ACP's terminal/* methods, the way an editor
// such as Zed provides them. Commands really run (child processes), so the
// agent's output, exit status, kill and release handling are exercised for
// real. Every call is recorded for the tests to assert on.

import { spawn } from "node:child_process";
import * as acp from "@agentclientprotocol/sdk";

/** Terminals answers terminal/* requests; pass it as the harness's `terminals` option. */
export class Terminals {
  constructor() {
    this.calls = []; // {method, params} in arrival order
    this.byId = new Map();
    this.next = 1;
  }

  /** methods returns the recorded method names, in order. */
  methods() {
    return this.calls.map((c) => c.method);
  }

  create({ params }) {
    this.#record("terminal/create", params);
    const id = `term_${this.next++}`;
    this.byId.set(id, this.#spawn(params));
    return { terminalId: id };
  }

  // Starts the command; stdout and stderr go into one output, as in a terminal.
  #spawn(params) {
    const env = { ...process.env };
    for (const { name, value } of params.env ?? []) env[name] = value;
    const child = spawn(params.command, params.args ?? [], { cwd: params.cwd ?? undefined, env, stdio: ["ignore", "pipe", "pipe"] });
    const term = { child, output: "", truncated: false, limit: params.outputByteLimit ?? null, exit: null, released: false };
    term.exited = new Promise((resolve) => {
      child.on("close", (code, signal) => {
        term.exit = { exitCode: code, signal: signal ?? null };
        resolve(term.exit);
      });
      child.on("error", (err) => {
        term.output += `${err.message}\n`;
        term.exit = { exitCode: 127, signal: null };
        resolve(term.exit);
      });
    });
    for (const stream of [child.stdout, child.stderr]) {
      stream.setEncoding("utf8"); // keeps characters split across reads whole
      stream.on("data", (text) => this.#append(term, text));
    }
    return term;
  }

  output({ params }) {
    this.#record("terminal/output", params);
    const term = this.#get(params.terminalId);
    return { output: term.output, truncated: term.truncated, exitStatus: term.exit };
  }

  async waitForExit({ params, signal }) {
    this.#record("terminal/wait_for_exit", params);
    const term = this.#get(params.terminalId);
    // The agent may withdraw the wait ($/cancel_request); the SDK then aborts
    // the signal and answers -32800 with the reason we reject with.
    const aborted = new Promise((_, reject) =>
      signal?.addEventListener("abort", () => reject(signal.reason ?? acp.RequestError.requestCancelled())),
    );
    return Promise.race([term.exited, aborted]);
  }

  kill({ params }) {
    this.#record("terminal/kill", params);
    this.#stop(this.#get(params.terminalId));
    return {};
  }

  release({ params }) {
    this.#record("terminal/release", params);
    const term = this.#get(params.terminalId);
    this.#stop(term);
    term.released = true;
    return {};
  }

  /** closeAll kills whatever still runs (test cleanup). */
  closeAll() {
    for (const term of this.byId.values()) this.#stop(term);
  }

  #record(method, params) {
    this.calls.push({ method, params });
  }

  #get(id) {
    const term = this.byId.get(id);
    if (!term || term.released) throw acp.RequestError.invalidParams({ terminalId: id }, `unknown terminal ${id}`);
    return term;
  }

  #stop(term) {
    if (term.exit === null) term.child.kill("SIGKILL");
  }

  // Keeps at most limit bytes, dropping from the start at a character
  // boundary, as the protocol asks of clients.
  #append(term, text) {
    term.output += text;
    if (term.limit === null) return;
    let bytes = Buffer.from(term.output, "utf8");
    if (bytes.length <= term.limit) return;
    bytes = bytes.subarray(bytes.length - term.limit);
    let start = 0;
    while (start < bytes.length && (bytes[start] & 0xc0) === 0x80) start++;
    term.output = bytes.subarray(start).toString("utf8");
    term.truncated = true;
  }
}
