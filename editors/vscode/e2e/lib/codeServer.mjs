// Starts a real VS Code (code-server) on 127.0.0.1 with its own user data,
// extensions folder and settings, and stops it with everything it started.
//
// code-server runs in a new session (setsid through `detached`), so stopping
// it kills every process of that session: the server, its extension hosts,
// the companion children and whatever they started in process groups of
// their own. Stopping also happens on process exit and on SIGINT/SIGTERM, so
// a failing or interrupted test leaves nothing behind.

import { spawn } from "node:child_process";
import { createWriteStream } from "node:fs";
import { cp, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { codeServerBin, node24Home } from "./env.mjs";

/** BASE_SETTINGS keep VS Code quiet and offline (see shared/editors/TESTING.md). */
export const BASE_SETTINGS = {
  "telemetry.telemetryLevel": "off",
  "update.mode": "none",
  "extensions.autoUpdate": false,
  "extensions.autoCheckUpdates": false,
  "chat.disableAIFeatures": true,
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "security.workspace.trust.enabled": false,
  "git.enabled": false,
  "files.autoSave": "off",
  // The editor area keeps its width (no empty secondary side bar), and a
  // diff stays side by side there (a hunk's Revert acts on the right side).
  "workbench.secondarySideBar.defaultVisibility": "hidden",
  "diffEditor.useInlineViewWhenSpaceIsLimited": false,
};

const READY_TIMEOUT_MS = 60_000;
const STOP_GRACE_MS = 3_000;
const START_ATTEMPTS = 3;

// TAG_VAR is set in code-server's environment to the server's temp dir:
// every process it starts inherits it, even one that left its session and
// lost its parent, so teardown finds them all.
const TAG_VAR = "COMPANION_E2E_SERVER";

/** freePort asks the kernel for a port nobody listens on. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * startCodeServer launches code-server on a free port and waits for /healthz.
 *
 * options.workspace: the folder opened; options.settings: added to the user and remote (Machine)
 * settings.json; options.env: added to code-server's environment (the
 * extension host and so the companion child inherit it); options.extensions:
 * extension folders copied into the extensions dir; options.vsix: .vsix
 * files installed with code-server's --install-extension.
 * Returns a CodeServer; call stop() (idempotent) when done.
 */
export async function startCodeServer(options = {}) {
  const root = await mkdtemp(path.join(os.tmpdir(), "companion-e2e-cs-"));
  const dirs = { root, data: path.join(root, "data"), extensions: path.join(root, "extensions") };
  try {
    await mkdir(dirs.extensions, { recursive: true });
    const trust = options.workspaceTrust
      ? { "security.workspace.trust.enabled": true, "security.workspace.trust.startupPrompt": "never", "security.workspace.trust.banner": "never" }
      : {};
    const settings = JSON.stringify({ ...BASE_SETTINGS, ...trust, ...options.settings }, null, 2);
    // code-server is a remote window: there settings of "machine" scope
    // (companion.path, .args, .env) come only from the remote settings
    // (Machine/), and user values are ignored once the window knows it is
    // remote. Both files get every setting; each scope reads its own.
    for (const scope of ["User", "Machine"]) {
      await mkdir(path.join(dirs.data, scope), { recursive: true });
      await writeFile(path.join(dirs.data, scope, "settings.json"), settings);
    }
    await installExtensions(dirs, options);
  } catch (err) {
    await rm(root, { recursive: true, force: true });
    throw err;
  }
  // The free port may be taken again before code-server binds it (other
  // processes on the machine): a server that exits at once is retried.
  for (let attempt = 1; ; attempt++) {
    const server = new CodeServer(await freePort(), dirs, options);
    try {
      await server.start();
      return server;
    } catch (err) {
      const log = await server.logTail();
      await server.stop({ keepDirs: attempt < START_ATTEMPTS && err.exitedEarly });
      if (attempt < START_ATTEMPTS && err.exitedEarly) continue;
      throw new Error(`${err.message}\n--- code-server log ---\n${log}`);
    }
  }
}

// installExtensions puts extensions in place before the server starts. A
// folder is copied as <publisher>.<name>-<version>, the name code-server
// itself gives an installed extension; a .vsix goes through the real installer.
async function installExtensions(dirs, options) {
  for (const folder of options.extensions ?? []) {
    const pkg = JSON.parse(await readFile(path.join(folder, "package.json"), "utf8"));
    const target = path.join(dirs.extensions, `${pkg.publisher}.${pkg.name}-${pkg.version}`.toLowerCase());
    await cp(folder, target, { recursive: true, filter: (src) => !/\/(node_modules|e2e|\.git)$/.test(src) || src === folder });
  }
  for (const vsix of options.vsix ?? []) {
    const args = ["--user-data-dir", dirs.data, "--extensions-dir", dirs.extensions, "--install-extension", vsix];
    await run(codeServerBin(), args, codeServerEnv({}));
  }
}

// codeServerEnv is the environment of code-server and its CLI: Node 24
// first on PATH, and no extension gallery (else it reaches outside).
function codeServerEnv(extra) {
  return {
    ...process.env,
    ...extra,
    PATH: `${path.join(node24Home(), "bin")}:${process.env.PATH}`,
    EXTENSIONS_GALLERY: JSON.stringify({ serviceUrl: "" }),
  };
}

function run(cmd, args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve(out) : reject(new Error(`${cmd} ${args.join(" ")} exited ${code}:\n${out}`))));
  });
}

/** CodeServer is one running code-server; see startCodeServer. */
export class CodeServer {
  constructor(port, dirs, options) {
    this.port = port;
    this.dirs = dirs;
    this.options = options;
    this.url = `http://127.0.0.1:${port}`;
    this.logFile = path.join(dirs.root, "code-server.log");
    this.child = null;
    this.exited = null;
    this.family = null;
    this.onExit = () => this.killAllSync();
  }

  /** start spawns the server and waits until it answers /healthz. */
  async start() {
    await writeFile(
      path.join(this.dirs.data, "config.yaml"),
      `bind-addr: 127.0.0.1:${this.port}\nauth: none\ncert: false\n`,
    );
    this.spawn();
    await this.waitReady();
  }

  /** spawn starts the server in a new session, output to code-server.log. */
  spawn() {
    const args = [
      "--bind-addr", `127.0.0.1:${this.port}`, "--auth", "none",
      "--user-data-dir", this.dirs.data, "--extensions-dir", this.dirs.extensions,
      "--config", path.join(this.dirs.data, "config.yaml"),
      "--disable-telemetry", "--disable-update-check",
      "--disable-getting-started-override",
      "--vscode-option", "enable-smoke-test-driver",
    ];
    // options.workspaceTrust: VS Code's workspace trust is on (the folder opens in restricted mode).
    if (!this.options.workspaceTrust) args.push("--disable-workspace-trust");
    if (this.options.workspace) args.push(this.options.workspace);
    const env = codeServerEnv({ ...this.options.env, [TAG_VAR]: this.dirs.root });
    const log = createWriteStream(this.logFile);
    this.child = spawn(codeServerBin(), args, { env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    this.child.stdout.pipe(log);
    this.child.stderr.pipe(log);
    this.exited = new Promise((resolve) => {
      this.child.once("exit", (code, signal) => resolve({ code, signal }));
      this.child.once("error", (err) => resolve({ code: null, signal: err.message }));
    });
    process.once("exit", this.onExit);
    live.add(this);
    watchSignals();
    this.recordPid();
  }

  // recordPid leaves a file named by the session id and holding the
  // environment tag in $COMPANION_E2E_PID_DIR (ci.sh sets it), so ci.sh can
  // still end the server's processes if this process is SIGKILLed.
  recordPid() {
    const dir = process.env.COMPANION_E2E_PID_DIR;
    if (!dir) return;
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, String(this.child.pid)), `${TAG_VAR}=${this.dirs.root}`);
  }

  /** waitReady polls /healthz until it answers, failing early if the server exits. */
  async waitReady() {
    const deadline = Date.now() + READY_TIMEOUT_MS;
    let gone = null;
    this.exited.then((r) => (gone = r));
    while (Date.now() < deadline) {
      if (gone) {
        const err = new Error(`code-server exited early (code ${gone.code}, signal ${gone.signal})`);
        err.exitedEarly = true;
        throw err;
      }
      try {
        const res = await fetch(`${this.url}/healthz`);
        if (res.ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`code-server not ready on ${this.url} after ${READY_TIMEOUT_MS} ms`);
  }

  /** remoteUri turns a local absolute path into the URI the browser side uses. */
  remoteUri(localPath) {
    return `vscode-remote://127.0.0.1:${this.port}${localPath}`;
  }

  /** logTail is the end of code-server's own output, for failure messages. */
  async logTail(lines = 40) {
    try {
      return (await readFile(this.logFile, "utf8")).split("\n").slice(-lines).join("\n");
    } catch {
      return "(no log)";
    }
  }

  /**
   * outputChannel returns what the output channel `name` holds so far (VS
   * Code keeps each channel in a log file under the user data dir), "" when
   * it has none yet.
   */
  async outputChannel(name) {
    const texts = [];
    for (const file of await listFiles(path.join(this.dirs.data, "logs"))) {
      if (path.basename(file).replace(/^\d+-/, "") === `${name}.log`) texts.push(await readFile(file, "utf8"));
    }
    return texts.join("\n");
  }

  /** exthostLogs concatenates the extension-host logs and the output channels (where companion's stderr goes). */
  async exthostLogs() {
    const out = [];
    for (const file of await listFiles(path.join(this.dirs.data, "logs"))) {
      if (/exthost|output_logging|Companion|companion/i.test(file)) {
        out.push(`=== ${path.relative(this.dirs.data, file)}\n${await readFile(file, "utf8")}`);
      }
    }
    return out.join("\n");
  }

  /**
   * stop ends the whole session (TERM, then KILL), then removes the temp
   * dirs unless COMPANION_E2E_KEEP is set or keepDirs is true.
   */
  async stop({ keepDirs = false } = {}) {
    process.removeListener("exit", this.onExit);
    live.delete(this);
    if (this.child && this.child.exitCode === null && this.child.signalCode === null) {
      // Remember the family first: once a parent is gone, a child in a
      // session of its own can no longer be traced back to the server.
      this.family = this.familyPids();
      signalPids(this.family, "SIGTERM");
      const timer = new Promise((r) => setTimeout(r, STOP_GRACE_MS, "timeout"));
      await Promise.race([this.exited, timer]);
    }
    this.killAllSync();
    if (process.env.COMPANION_E2E_PID_DIR && this.child) {
      rmSync(path.join(process.env.COMPANION_E2E_PID_DIR, String(this.child.pid)), { force: true });
    }
    if (keepDirs) return;
    if (process.env.COMPANION_E2E_KEEP) {
      console.error(`[e2e] kept ${this.dirs.root}`);
      return;
    }
    await rm(this.dirs.root, { recursive: true, force: true, maxRetries: 3 });
  }

  /** killAllSync SIGKILLs every process the server started that is still alive. */
  killAllSync() {
    if (!this.child) return;
    // Once the server has exited, its pid may be reused by an unrelated
    // process: then its descendants no longer count, only session and tag.
    const running = this.child.exitCode === null && this.child.signalCode === null;
    signalPids([...(this.family ?? []), ...this.familyPids(running)], "SIGKILL");
  }

  /** familyPids lists the live processes this server started (see serverPids). */
  familyPids(withDescendants = true) {
    return serverPids({ sid: this.child.pid, tag: `${TAG_VAR}=${this.dirs.root}`, withDescendants });
  }
}

// live holds the servers of this process not yet stopped, for the signal
// handlers: a test run interrupted by SIGINT/SIGTERM still ends them.
const live = new Set();
let watching = false;

function watchSignals() {
  if (watching) return;
  watching = true;
  for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"]) {
    process.once(sig, () => {
      for (const server of live) {
        server.killAllSync();
        if (!process.env.COMPANION_E2E_KEEP) rmSync(server.dirs.root, { recursive: true, force: true });
      }
      process.kill(process.pid, sig);
    });
  }
}

// signalPids signals each pid, ignoring those already gone.
function signalPids(pids, signal) {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}

/**
 * serverPids lists the live processes a code-server started: those in its
 * session sid (it is a session leader; that holds its process group and the
 * groups its descendants made, such as shell tools and MCP servers), those
 * whose environment holds tag (what it started, even in a session of its
 * own after its parent died) and, when withDescendants, every descendant of
 * the process sid.
 */
export function serverPids({ sid, tag, withDescendants = true }) {
  const procs = readProcs();
  const family = new Set(procs.filter((p) => p.sid === sid || (tag && hasEnv(p.pid, tag))).map((p) => p.pid));
  if (!withDescendants) return [...family];
  family.add(sid);
  // Descendants by parent pid, to a fixed point (parents may be listed after children).
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of procs) {
      if (!family.has(p.pid) && family.has(p.ppid)) {
        family.add(p.pid);
        grew = true;
      }
    }
  }
  family.delete(process.pid);
  return [...family];
}

// hasEnv says whether the environment of pid holds the entry "NAME=value".
function hasEnv(pid, entry) {
  try {
    return readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").includes(entry);
  } catch {
    return false;
  }
}

// readProcs reads pid, parent pid and session id of every process.
function readProcs() {
  const procs = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      // Fields after "(comm)": state ppid pgrp session ...; comm may hold spaces.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (fields[0] === "Z") continue; // dead, waiting to be reaped
      procs.push({ pid: Number(name), ppid: Number(fields[1]), sid: Number(fields[3]) });
    } catch {
      // exited while we looked
    }
  }
  return procs;
}

async function listFiles(dir) {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true, recursive: true });
  } catch {
    return [];
  }
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath ?? e.path, e.name)).sort();
}
