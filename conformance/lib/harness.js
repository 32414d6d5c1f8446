// Harness: runs the real companion binary under the official ACP client
// library (@agentclientprotocol/sdk), capturing every newline-delimited
// JSON-RPC message in both directions at the pipe and validating it against
// the repo's pinned ACP schema.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtemp, mkdir, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import { MessageChecker } from "./schema.js";

/** WAIT_MS bounds every single wait (a response, an update, process exit). */
export const WAIT_MS = Number(process.env.CONFORMANCE_WAIT_MS ?? 10_000);

/** TEST_TIMEOUT_MS is the node:test timeout for one test. */
export const TEST_TIMEOUT_MS = Number(process.env.CONFORMANCE_TEST_TIMEOUT_MS ?? 30_000);

/** withTimeout rejects when promise has not settled within ms. */
export function withTimeout(promise, label, ms = WAIT_MS) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${label}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** settle lets already-received messages reach the SDK's handlers. */
export function settle() {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * rpcError awaits a request that must fail and returns the RequestError the
 * SDK rejected it with.
 */
export async function rpcError(promise, label) {
  try {
    const result = await withTimeout(promise, label);
    assert.fail(`${label}: expected an error, got result ${JSON.stringify(result)}`);
  } catch (err) {
    if (err instanceof assert.AssertionError || !(err instanceof acp.RequestError)) throw err;
    return err;
  }
}

/** textOf concatenates the text of content chunks in updates. */
export function textOf(updates, kind = "agent_message_chunk") {
  return updates
    .filter((u) => u.sessionUpdate === kind && u.content?.type === "text")
    .map((u) => u.content.text)
    .join("");
}

function companionBin() {
  const bin = process.env.COMPANION_BIN;
  if (!bin) throw new Error("set COMPANION_BIN to the companion binary (make conformance does)");
  return bin;
}

// Splits a byte stream into lines and hands each parsed line to onMessage.
function lineCapture(onLine) {
  const decoder = new TextDecoder();
  let buf = "";
  return (chunk) => {
    buf += decoder.decode(chunk, { stream: true });
    let nl;
    while ((nl = buf.indexOf("\n")) >= 0) {
      const line = buf.slice(0, nl).trim();
      buf = buf.slice(nl + 1);
      if (line) onLine(line);
    }
  };
}

async function makeWorkspace(files) {
  const dir = await realpath(await mkdtemp(path.join(tmpdir(), "companion-ws-")));
  for (const [name, content] of Object.entries(files ?? {})) {
    const p = path.join(dir, name);
    await mkdir(path.dirname(p), { recursive: true });
    await writeFile(p, content);
  }
  return dir;
}

/**
 * start launches `$COMPANION_BIN acp --script <tmp>` with a clean env and
 * connects an SDK client app to it. Options:
 *   script: the scripted-model script (object); null runs the real model
 *     provider, which without an API key must refuse to start sessions
 *   command: [program, ...args] to run instead of $COMPANION_BIN (harness self-test)
 *   files: workspace files {relative path: content}
 *   readTextFile / writeTextFile / requestPermission: client handlers
 *     (SDK request contexts: {params, signal, requestId, ...}); the default
 *     readTextFile reads the disk, the default permission answer is cancelled.
 *   terminals: an object answering terminal/* (create, output, waitForExit,
 *     kill, release), e.g. lib/terminals.js; without it they are not found.
 *   reuse: an earlier Companion whose HOME and workspace this one shares, so
 *     a second process sees the first one's stored sessions (as when an
 *     editor restarts the agent). The first one owns and removes them.
 * Cleanup (kill, temp dirs) is registered with t.after.
 */
export async function start(t, opts = {}) {
  const h = new Companion(t, opts);
  await h.launch();
  return h;
}

class Companion {
  constructor(t, opts) {
    this.t = t;
    this.opts = opts;
    this.messages = []; // {dir: "c2a"|"a2c", msg, line}
    this.violations = []; // {dir, line, problems}
    this.stderr = "";
    this.updatesBySession = new Map();
    this.waiters = new Set();
    this.checker = new MessageChecker();
    this.closed = false;
  }

  async launch() {
    const shared = this.opts.reuse;
    this.ownsDirs = !shared;
    this.home = shared ? shared.home : await mkdtemp(path.join(tmpdir(), "companion-home-"));
    this.workspace = shared ? shared.workspace : await makeWorkspace(this.opts.files);
    const args = ["acp"];
    if (this.opts.script !== null) {
      // A reusing process gets its own script file: the first may still run.
      const scriptPath = path.join(this.home, shared ? `script-${process.hrtime.bigint()}.json` : "script.json");
      await writeFile(scriptPath, JSON.stringify(this.opts.script ?? { turns: [] }));
      args.push("--script", scriptPath);
    }
    this.t.after(() => this.cleanup());

    const env = {
      HOME: this.home,
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      XDG_CONFIG_HOME: path.join(this.home, ".config"),
    };
    const [bin, ...pre] = this.opts.command ?? [companionBin()];
    this.child = spawn(bin, [...pre, ...args], {
      cwd: this.workspace,
      env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    this.exited = new Promise((resolve) => {
      this.child.on("close", (code, signal) => resolve({ code, signal }));
    });
    this.spawnError = new Promise((_, reject) => this.child.on("error", reject));
    this.spawnError.catch(() => {});
    this.child.stderr.setEncoding("utf8");
    this.child.stderr.on("data", (s) => {
      this.stderr += s;
    });
    this.child.stdin.on("error", () => {}); // EPIPE after exit shows up as the exit code instead

    this.connection = this.#connectSdk();
    this.agent = this.connection.agent;
  }

  #connectSdk() {
    const captureIn = lineCapture((line) => this.#capture("a2c", line));
    const captureOut = lineCapture((line) => this.#capture("c2a", line));
    const fromAgent = Readable.toWeb(this.child.stdout).pipeThrough(
      new TransformStream({
        transform(chunk, controller) {
          captureIn(chunk);
          controller.enqueue(chunk);
        },
      }),
    );
    const stdin = this.child.stdin;
    const toAgent = new WritableStream({
      write(chunk) {
        captureOut(chunk);
        return new Promise((resolve, reject) => stdin.write(chunk, (err) => (err ? reject(err) : resolve())));
      },
      close() {
        stdin.end();
      },
    });
    const app = acp
      .client({ name: "companion-conformance" })
      .onNotification(acp.methods.client.session.update, ({ params }) => this.#onUpdate(params))
      .onRequest(acp.methods.client.fs.readTextFile, (ctx) => (this.opts.readTextFile ?? readFromDisk)(ctx))
      .onRequest(acp.methods.client.fs.writeTextFile, (ctx) => {
        if (!this.opts.writeTextFile) throw acp.RequestError.methodNotFound(ctx.method);
        return this.opts.writeTextFile(ctx);
      })
      .onRequest(acp.methods.client.session.requestPermission, (ctx) =>
        this.opts.requestPermission ? this.opts.requestPermission(ctx) : { outcome: { outcome: "cancelled" } },
      )
      .onRequest(acp.methods.client.elicitation.create, (ctx) => {
        if (!this.opts.elicit) throw acp.RequestError.methodNotFound(ctx.method);
        return this.opts.elicit(ctx);
      });
    const terms = this.opts.terminals;
    const tm = acp.methods.client.terminal;
    for (const [method, name] of [[tm.create, "create"], [tm.output, "output"], [tm.waitForExit, "waitForExit"], [tm.kill, "kill"], [tm.release, "release"]]) {
      app.onRequest(method, (ctx) => {
        if (!terms) throw acp.RequestError.methodNotFound(ctx.method);
        return terms[name](ctx);
      });
    }
    return app.connect(acp.ndJsonStream(toAgent, fromAgent));
  }

  #capture(dir, line) {
    let msg;
    try {
      msg = JSON.parse(line);
    } catch (err) {
      this.violations.push({ dir, line, problems: [{ against: "JSON", errors: err.message }] });
      return;
    }
    this.messages.push({ dir, msg, line });
    const problems = this.checker.check(dir, msg);
    if (problems.length) this.violations.push({ dir, line, problems });
    this.#wake();
  }

  #onUpdate(params) {
    const list = this.updatesBySession.get(params.sessionId) ?? [];
    list.push(params.update);
    this.updatesBySession.set(params.sessionId, list);
    this.#wake();
  }

  #wake() {
    for (const w of this.waiters) w();
  }

  /** until resolves with pred()'s first truthy value, re-checked on every message. */
  until(pred, label, ms = WAIT_MS) {
    const found = pred();
    if (found) return Promise.resolve(found);
    let waiter;
    const p = new Promise((resolve) => {
      waiter = () => {
        const v = pred();
        if (v) resolve(v);
      };
      this.waiters.add(waiter);
    });
    return withTimeout(p, label, ms).finally(() => this.waiters.delete(waiter));
  }

  /** waitMessage waits for a captured message in dir matching pred. */
  waitMessage(dir, pred, label) {
    return this.until(() => this.messages.find((m) => m.dir === dir && pred(m.msg))?.msg, label);
  }

  /**
   * answerTo returns the captured response to the last request for method
   * sent in dir ("c2a": a request to the agent), or undefined.
   */
  answerTo(method, dir = "c2a") {
    const req = this.messages.findLast((m) => m.dir === dir && m.msg.method === method && "id" in m.msg);
    if (!req) return undefined;
    return this.messages.find((m) => m.dir !== dir && !m.msg.method && m.msg.id === req.msg.id)?.msg;
  }

  /** updates returns the session/update payloads the SDK delivered for a session. */
  updates(sessionId) {
    return [...(this.updatesBySession.get(sessionId) ?? [])];
  }

  /** waitUpdate waits until the SDK delivered an update of kind (matching pred) for the session. */
  waitUpdate(sessionId, kind, pred = () => true) {
    return this.until(
      () => this.updates(sessionId).find((u) => u.sessionUpdate === kind && pred(u)),
      `${kind} on ${sessionId}`,
    );
  }

  /** request sends an agent method through the SDK, bounded by WAIT_MS. */
  request(method, params, options) {
    return withTimeout(this.agent.request(method, params, options), method);
  }

  /** initialize sends protocol version 1 with the given client capabilities. */
  initialize(clientCapabilities = {}) {
    return this.request(acp.methods.agent.initialize, {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities,
      clientInfo: { name: "companion-conformance", version: "1.0.0" },
    });
  }

  /** newSession opens a session rooted at the workspace. */
  newSession(extra = {}) {
    return this.request(acp.methods.agent.session.new, { cwd: this.workspace, mcpServers: [], ...extra });
  }

  /** prompt sends a text prompt; the promise is not time-bounded (wrap it). */
  prompt(sessionId, text, options) {
    return this.agent.request(
      acp.methods.agent.session.prompt,
      { sessionId, prompt: [{ type: "text", text }] },
      options,
    );
  }

  /** cancel sends session/cancel. */
  cancel(sessionId) {
    return this.agent.notify(acp.methods.agent.session.cancel, { sessionId });
  }

  /** assertValid fails with every message that broke the schema. */
  assertValid() {
    if (this.violations.length === 0) return;
    const report = this.violations
      .map((v) => `${v.dir === "c2a" ? "client -> agent" : "agent -> client"}: ${v.line}\n` +
        v.problems.map((p) => `  against ${p.against}: ${JSON.stringify(p.errors, null, 2)}`).join("\n"))
      .join("\n\n");
    assert.fail(`${this.violations.length} message(s) do not match the pinned ACP schema:\n\n${report}`);
  }

  /**
   * close ends stdin, asserts companion exits with code 0, and asserts every
   * captured message was valid.
   */
  async close() {
    this.closed = true;
    this.child.stdin.end();
    const { code, signal } = await withTimeout(Promise.race([this.exited, this.spawnError]), "companion to exit");
    // stdout is at EOF: the SDK drains what is left and closes by itself.
    await withTimeout(this.connection.closed, "the SDK connection to close");
    await settle();
    assert.ok(
      this.messages.some((m) => m.dir === "c2a") && this.messages.some((m) => m.dir === "a2c"),
      "no traffic was captured in one of the directions",
    );
    this.assertValid();
    const sent = this.messages.filter((m) => m.dir === "a2c" && m.msg.method === "session/update").length;
    const delivered = [...this.updatesBySession.values()].reduce((n, l) => n + l.length, 0);
    assert.equal(delivered, sent, "the SDK accepted every session/update the agent sent");
    assert.equal(code, 0, `companion exited with code ${code} signal ${signal}; stderr:\n${this.stderr.slice(-4000)}`);
    // A clean end of input closes the SDK connection with its generic reason;
    // anything else (a write failure, a handler error) is a failure.
    const reason = this.connection.signal.reason;
    assert.equal(reason?.message, "ACP connection closed", `the SDK connection closed with: ${reason?.stack ?? reason}`);
  }

  async cleanup() {
    if (this.child && this.child.exitCode === null && this.child.signalCode === null) {
      this.child.kill("SIGKILL");
      await this.exited;
    }
    this.connection?.close();
    this.opts.terminals?.closeAll?.();
    if (!this.closed && this.violations.length) {
      this.t.diagnostic(`schema violations: ${JSON.stringify(this.violations)}`);
    }
    if (!this.ownsDirs) return;
    await rm(this.home, { recursive: true, force: true });
    await rm(this.workspace, { recursive: true, force: true });
  }
}

async function readFromDisk({ params }) {
  let text = await readFile(params.path, "utf8");
  if (params.line != null || params.limit != null) {
    const lines = text.split("\n");
    const from = Math.max((params.line ?? 1) - 1, 0);
    text = lines.slice(from, params.limit != null ? from + params.limit : undefined).join("\n");
  }
  return { content: text };
}
