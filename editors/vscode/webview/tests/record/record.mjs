// Records a real companion session as the ToWebview message stream the
// extension would post to the webview, for the UI tests' fixture.
//
//   COMPANION_BIN=/abs/companion node tests/record/record.mjs [out.json]
//
// It runs `$COMPANION_BIN acp --script tests/record/script.json` in a temp
// workspace through the official ACP client library (as the extension does),
// answers permission requests with the first "allow" option, runs terminals
// locally, and writes {live, sessions, replay}: the live turn, the
// session/list answer and the session/load replay of the same session.
// Temp paths are rewritten to /home/user/project so the fixture is stable.

import { spawn } from "node:child_process";
import { mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import * as acp from "@agentclientprotocol/sdk";

const here = path.dirname(fileURLToPath(import.meta.url));
const STABLE_ROOT = "/home/user/project";
const MAIN_GO = 'package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Println("hi")\n}\n';

function companionBin() {
  const bin = process.env.COMPANION_BIN;
  if (!bin || !path.isAbsolute(bin)) throw new Error("set COMPANION_BIN to the absolute path of the companion binary");
  return bin;
}

/** Terminals runs terminal/* requests as local child processes. */
class Terminals {
  #next = 1;
  #all = new Map();

  create({ command, args = [], cwd }) {
    const id = `term-${this.#next++}`;
    const proc = spawn(command, args, { cwd: cwd ?? undefined, stdio: ["ignore", "pipe", "pipe"] });
    const t = { proc, output: "", exit: null };
    const collect = (b) => { t.output += b.toString("utf8"); };
    proc.stdout.on("data", collect);
    proc.stderr.on("data", collect);
    t.done = new Promise((resolve) => proc.on("close", (code, signal) => {
      t.exit = { exitCode: code, signal: signal ?? null };
      resolve(t.exit);
    }));
    this.#all.set(id, t);
    return { terminalId: id };
  }

  #get(id) {
    const t = this.#all.get(id);
    if (!t) throw acp.RequestError.resourceNotFound(id);
    return t;
  }

  output({ terminalId }) {
    const t = this.#get(terminalId);
    return { output: t.output, truncated: false, exitStatus: t.exit };
  }

  waitForExit({ terminalId }) { return this.#get(terminalId).done; }

  kill({ terminalId }) { this.#get(terminalId).proc.kill("SIGKILL"); return {}; }

  release({ terminalId }) {
    const t = this.#get(terminalId);
    if (!t.exit) t.proc.kill("SIGKILL");
    this.#all.delete(terminalId);
    return {};
  }
}

/** connect starts the agent and an SDK client that appends to `out`. */
function connect(workspace, home, out) {
  const child = spawn(companionBin(), ["acp", "--script", path.join(here, "script.json")], {
    cwd: workspace,
    env: { HOME: home, PATH: process.env.PATH ?? "/usr/bin:/bin", XDG_CONFIG_HOME: path.join(home, ".config") },
    stdio: ["pipe", "pipe", "inherit"],
  });
  const terms = new Terminals();
  let perm = 0;
  const app = acp
    .client({ name: "companion-webview-recorder" })
    .onNotification(acp.methods.client.session.update, ({ params }) =>
      out.push({ type: "update", sessionId: params.sessionId, update: params.update }))
    .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
      const requestId = `perm-${++perm}`;
      const inDiffEditor = params.toolCall.kind === "edit";
      out.push({ type: "permission", requestId, sessionId: params.sessionId, toolCall: params.toolCall, options: params.options, inDiffEditor });
      const allow = params.options.find((o) => o.kind === "allow_once") ?? params.options[0];
      out.push({ type: "permissionDone", requestId, optionId: allow.optionId });
      return { outcome: { outcome: "selected", optionId: allow.optionId } };
    })
    .onRequest(acp.methods.client.terminal.create, ({ params }) => terms.create(params))
    .onRequest(acp.methods.client.terminal.output, ({ params }) => terms.output(params))
    .onRequest(acp.methods.client.terminal.waitForExit, ({ params }) => terms.waitForExit(params))
    .onRequest(acp.methods.client.terminal.kill, ({ params }) => terms.kill(params))
    .onRequest(acp.methods.client.terminal.release, ({ params }) => terms.release(params));
  const stream = acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout));
  return { child, conn: app.connect(stream) };
}

async function initialize(agent) {
  const init = await agent.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: { terminal: true, session: { notices: {}, compaction: {} } },
    clientInfo: { name: "companion-webview-recorder", version: "1.0.0" },
  });
  return { type: "status", state: "ready", agent: { name: init.agentInfo?.name ?? "companion", version: init.agentInfo?.version } };
}

async function recordLive(workspace, home) {
  const live = [];
  const { child, conn } = connect(workspace, home, live);
  live.push(await initialize(conn.agent));
  const s = await conn.agent.request(acp.methods.agent.session.new, { cwd: workspace, mcpServers: [] });
  live.splice(1, 0, { type: "session", sessionId: s.sessionId, cwd: workspace, title: null, modes: s.modes ?? null, configOptions: s.configOptions ?? null, replaying: false });
  const text = "Make main.go print a friendlier greeting, then show it.";
  live.push({ type: "turn", sessionId: s.sessionId, state: "running" });
  const res = await conn.agent.request(acp.methods.agent.session.prompt, { sessionId: s.sessionId, prompt: [{ type: "text", text }] });
  live.push({ type: "turn", sessionId: s.sessionId, state: "idle", stopReason: res.stopReason });
  const list = await conn.agent.request(acp.methods.agent.session.list, { cwd: workspace });
  child.stdin.end();
  await new Promise((r) => child.on("close", r));
  return { live, text, sessionId: s.sessionId, sessions: { type: "sessions", sessions: list.sessions } };
}

async function recordReplay(workspace, home, sessionId) {
  const replay = [];
  const { child, conn } = connect(workspace, home, replay);
  await initialize(conn.agent);
  const loaded = await conn.agent.request(acp.methods.agent.session.load, { sessionId, cwd: workspace, mcpServers: [] });
  replay.unshift({ type: "session", sessionId, cwd: workspace, title: null, modes: loaded.modes ?? null, configOptions: loaded.configOptions ?? null, replaying: true });
  replay.push({ type: "replayDone", sessionId });
  child.stdin.end();
  await new Promise((r) => child.on("close", r));
  return replay;
}

/** record runs the scripted session and returns the fixture object. */
export async function record() {
  const workspace = await realpath(await mkdtemp(path.join(tmpdir(), "companion-rec-ws-")));
  const home = await mkdtemp(path.join(tmpdir(), "companion-rec-home-"));
  try {
    await writeFile(path.join(workspace, "main.go"), MAIN_GO);
    const rec = await recordLive(workspace, home);
    const replay = await recordReplay(workspace, home, rec.sessionId);
    const fixture = { prompt: rec.text, live: rec.live, sessions: rec.sessions, replay };
    return JSON.parse(JSON.stringify(fixture).replaceAll(workspace, STABLE_ROOT));
  } finally {
    await rm(workspace, { recursive: true, force: true });
    await rm(home, { recursive: true, force: true });
  }
}

async function main() {
  const outPath = process.argv[2] ?? path.join(here, "..", "fixtures", "session.json");
  const fixture = await record();
  await writeFile(outPath, JSON.stringify(fixture, null, 1) + "\n");
  console.error(`recorded ${fixture.live.length} live and ${fixture.replay.length} replay messages into ${outPath}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
