// Unit tests of session titles and history entries, the ACP trace (lines,
// redaction, the stream wrapper) and the trace's log level in the launch.

import { test } from "node:test";
import assert from "node:assert/strict";
import type * as acp from "@agentclientprotocol/sdk";
import { cleanTitle, historyEntries, MAX_TITLE_CHARS } from "../../src/core/titles";
import { Correlator, redact, REDACTED, traceLevel, traceStream } from "../../src/core/trace";
import { composeLaunch } from "../../src/core/launch";

test("cleanTitle shows a prompt's first line as plain words", () => {
  const cases: [string | null | undefined, string][] = [
    [null, ""],
    ["   ", ""],
    ["**Fix** the `parse()` bug", "Fix the parse() bug"],
    ["# Heading: _why_ it fails", "Heading: why it fails"],
    ["```ts", ""],
    ["```go\nfunc main() {}\n```", "func main() {}"],
    ["see [the docs](https://x.example/a) and ![img](a.png)", "see the docs and img"],
    ["- list item", "list item"],
    ["> quoted ~~old~~ text", "quoted old text"],
    ["  many    spaces\tand\nlines ", "many spaces and lines"],
    ["snake_case_name stays", "snake_case_name stays"],
    ["2 * 3 * 4", "2 * 3 * 4"],
  ];
  for (const [raw, want] of cases) assert.equal(cleanTitle(raw), want, JSON.stringify(raw));
  const long = cleanTitle("word ".repeat(40));
  assert.ok(long.length <= MAX_TITLE_CHARS && long.endsWith("…"), long);
});

test("historyEntries drops sessions without a prompt, cleans and tells equal titles apart", () => {
  const s = (sessionId: string, title: string | null) => ({ sessionId, cwd: "/w", title });
  const got = historyEntries(
    [s("e", "**fix** tests"), s("d", null), s("c", "fix tests"), s("b", "other"), s("a", "fix `tests`"), s("cur", null)],
    "cur",
  );
  assert.deepEqual(
    got.map((x) => [x.sessionId, x.title]),
    [
      ["e", "fix tests (3)"],
      ["c", "fix tests (2)"],
      ["b", "other"],
      ["a", "fix tests"],
      ["cur", null], // the current session, even empty, stays listed
    ],
  );
  assert.equal(new Set(got.map((x) => x.title)).size, got.length, "no two entries read the same");
});

test("redact hides secret values at any depth, keeps the rest", () => {
  const msg = {
    jsonrpc: "2.0",
    id: 3,
    method: "authenticate",
    params: {
      apiKey: "sk-123",
      nested: [{ Authorization: "Bearer abc", note: "keep" }, { access_token: "t0k" }],
      env: [
        { name: "GEMINI_API_KEY", value: "AIza-secret" },
        { name: "PATH", value: "/usr/bin" },
      ],
      headers: { "x-api-key": "k", accept: "json" },
      password: "hunter2",
      tokenCount: null,
    },
  };
  const out = JSON.stringify(redact(msg));
  for (const secret of ["sk-123", "Bearer abc", "t0k", "AIza-secret", '"k"', "hunter2"]) assert.ok(!out.includes(secret), `${secret} leaked: ${out}`);
  for (const kept of ["keep", "/usr/bin", "authenticate", '"accept":"json"']) assert.ok(out.includes(kept), `${kept} lost: ${out}`);
  assert.ok(out.includes(REDACTED));
  assert.equal((msg.params as { apiKey: string }).apiKey, "sk-123", "the message itself is untouched");
});

test("trace lines give direction, method, id and size; responses name their request", () => {
  const c = new Correlator();
  const at = new Date("2026-01-02T03:04:05.000Z");
  const req = { jsonrpc: "2.0", id: 1, method: "session/prompt", params: { sessionId: "s", prompt: [] } } as acp.AnyMessage;
  const line = c.describe("send", req, "messages", at);
  assert.equal(line, `2026-01-02T03:04:05.000Z → request session/prompt id=1 (${Buffer.byteLength(JSON.stringify(req))} bytes)`);
  const resp = { jsonrpc: "2.0", id: 1, result: { stopReason: "end_turn" } } as acp.AnyMessage;
  assert.match(c.describe("recv", resp, "messages", at), /← response session\/prompt id=1 \(\d+ bytes\)$/);
  const note = { jsonrpc: "2.0", method: "session/update", params: { sessionId: "s" } } as acp.AnyMessage;
  assert.match(c.describe("recv", note, "messages", at), /← notification session\/update \(\d+ bytes\)$/);
  // A request from the agent, answered with an error by us.
  c.describe("recv", { jsonrpc: "2.0", id: 7, method: "fs/read_text_file", params: {} } as acp.AnyMessage, "messages", at);
  const err = { jsonrpc: "2.0", id: 7, error: { code: -32603, message: "no" } } as acp.AnyMessage;
  assert.match(c.describe("send", err, "messages", at), /→ error fs\/read_text_file id=7 code=-32603/);
  // Verbose adds the JSON, redacted.
  const secret = { jsonrpc: "2.0", id: 2, method: "x", params: { token: "s3cret", text: "hello" } } as acp.AnyMessage;
  const verbose = c.describe("send", secret, "verbose", at);
  const [, json] = verbose.split("\n");
  assert.deepEqual(JSON.parse(json), { jsonrpc: "2.0", id: 2, method: "x", params: { token: REDACTED, text: "hello" } });
  assert.equal(traceLevel("verbose"), "verbose");
  assert.equal(traceLevel("loud"), "off");
});

test("traceStream writes each message both ways and passes it on unchanged", async () => {
  const lines: string[] = [];
  const fromAgent = new TransformStream<acp.AnyMessage, acp.AnyMessage>();
  const toAgent = new TransformStream<acp.AnyMessage, acp.AnyMessage>();
  const traced = traceStream({ readable: fromAgent.readable, writable: toAgent.writable }, { level: "messages", write: (l) => lines.push(l) });
  const w = traced.writable.getWriter();
  const sent = { jsonrpc: "2.0", id: 1, method: "initialize", params: {} } as acp.AnyMessage;
  void w.write(sent);
  const r = toAgent.readable.getReader();
  assert.deepEqual((await r.read()).value, sent);
  const aw = fromAgent.writable.getWriter();
  const got = { jsonrpc: "2.0", id: 1, result: {} } as acp.AnyMessage;
  void aw.write(got);
  const tr = traced.readable.getReader();
  assert.deepEqual((await tr.read()).value, got);
  assert.equal(lines.length, 2);
  assert.match(lines[0], /→ request initialize id=1/);
  assert.match(lines[1], /← response initialize id=1/);
});

test("a trace turns the agent's log level to debug unless the environment sets one", () => {
  const base = { path: "", args: [], env: {}, model: "", baseEnv: { PATH: "/bin" }, cwd: "/w" };
  assert.equal(composeLaunch(base).env.COMPANION_LOG_LEVEL, undefined);
  assert.equal(composeLaunch({ ...base, logLevel: "debug" }).env.COMPANION_LOG_LEVEL, "debug");
  assert.equal(composeLaunch({ ...base, logLevel: "debug", baseEnv: { COMPANION_LOG_LEVEL: "warn" } }).env.COMPANION_LOG_LEVEL, "warn");
  assert.equal(composeLaunch({ ...base, logLevel: "debug", env: { COMPANION_LOG_LEVEL: "error" } }).env.COMPANION_LOG_LEVEL, "error");
});

test("with a tracer every message of a real turn is traced, both ways, in order", async (t) => {
  const { start, turnEnded } = await import("./helpers");
  const lines: string[] = [];
  const { editor, controller } = await start(t, [{ chunks: [{ text: "traced answer" }] }], { tracer: { level: "verbose", write: (l) => lines.push(l) } });
  await controller.handle({ type: "prompt", text: "trace me", mentions: [] });
  await turnEnded(editor);
  const heads = lines.map((l) => l.split("\n")[0].replace(/^\S+ /, ""));
  const at = (re: RegExp) => heads.findIndex((h) => re.test(h));
  assert.ok(at(/^→ request initialize id=\S+ \(\d+ bytes\)$/) === 0, heads.join("\n"));
  assert.ok(at(/^← response initialize /) > 0);
  const prompt = at(/^→ request session\/prompt id=/);
  assert.ok(prompt > 0 && at(/^← notification session\/update/) > 0 && at(/^← response session\/prompt /) > prompt, heads.join("\n"));
  const promptJson = lines[prompt].split("\n")[1];
  assert.match(promptJson, /"trace me"/, "verbose carries the message");
});
