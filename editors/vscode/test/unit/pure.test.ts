// Unit tests of the pure parts: launch rules, HTML/CSP, transcript merging,
// context caps, file ranking, line slicing and output capping.

import { test } from "node:test";
import assert from "node:assert/strict";
import { composeLaunch, keyVariable } from "../../src/core/launch";
import { webviewHtml } from "../../src/core/html";
import { Transcript } from "../../src/core/transcript";
import { capContext, capUtf8, MAX_DIAGNOSTICS } from "../../src/core/ideContext";
import { rankFiles, buildPrompt, userMessageUpdates } from "../../src/core/prompt";
import { sliceLines } from "../../src/core/files";
import { keepTail } from "../../src/core/terminals";
import { pickOption } from "../../src/core/permissions";
import { selectionInsert } from "../../src/core/selection";
import { startMode } from "../../src/core/trust";
import { readFileSync } from "node:fs";
import * as path from "node:path";

const base = { path: "", args: [], env: {}, model: "", baseEnv: { PATH: "/bin", HOME: "/h" }, cwd: "/ws" };

test("launch: setting path, else shipped binary, else PATH", () => {
  assert.equal(composeLaunch({ ...base, path: "/opt/c", shippedBinary: "/ext/bin/companion" }).command, "/opt/c");
  assert.equal(composeLaunch({ ...base, shippedBinary: "/ext/bin/companion" }).command, "/ext/bin/companion");
  assert.equal(composeLaunch(base).command, "companion");
});

test("launch: args are extra arguments after acp, model first", () => {
  const spec = composeLaunch({ ...base, model: "gemini-x", args: ["--script", "/s.json"] });
  assert.deepEqual(spec.args, ["acp", "--model", "gemini-x", "--script", "/s.json"]);
  assert.equal(spec.cwd, "/ws");
});

test("launch: the API key goes to the provider's variable; companion.env wins", () => {
  assert.equal(composeLaunch({ ...base, apiKey: "k1" }).env.GEMINI_API_KEY, "k1");
  const openai = composeLaunch({ ...base, apiKey: "k2", args: ["--provider", "openai"] });
  assert.equal(openai.env.OPENAI_API_KEY, "k2");
  assert.equal(openai.env.GEMINI_API_KEY, undefined);
  assert.equal(keyVariable(["--provider=openai"], {}), "OPENAI_API_KEY");
  assert.equal(keyVariable([], { COMPANION_PROVIDER: "openai" }), "OPENAI_API_KEY");
  const env = composeLaunch({ ...base, apiKey: "k3", env: { GEMINI_API_KEY: "mine", X: "1" } }).env;
  assert.equal(env.GEMINI_API_KEY, "mine");
  assert.equal(env.X, "1");
  assert.equal(env.PATH, "/bin");
});

test("html: strict CSP with nonce, the bundle and #root", () => {
  const html = webviewHtml({ cspSource: "vscode-webview://x", scriptUri: "https://x/webview.js", styleUri: "https://x/webview.css", nonce: "N0NCE" });
  assert.match(html, /default-src 'none'; script-src 'nonce-N0NCE'; style-src vscode-webview:\/\/x; img-src vscode-webview:\/\/x data:; font-src vscode-webview:\/\/x"/);
  assert.match(html, /<script nonce="N0NCE" src="https:\/\/x\/webview.js"><\/script>/);
  assert.match(html, /<link rel="stylesheet" href="https:\/\/x\/webview.css">/);
  assert.match(html, /<div id="root">.*<textarea id="prompt"[^>]*><\/textarea>.*<\/div>/s, "the prompt box is in the page before any script runs");
  assert.doesNotMatch(html, /<script>(?!<)/, "no inline script");
});

test("transcript merges adjacent agent text chunks but keeps user messages apart", () => {
  const t = new Transcript();
  const chunk = (kind: "agent_message_chunk" | "user_message_chunk", text: string) => ({ sessionUpdate: kind, content: { type: "text" as const, text } });
  t.add("s", chunk("user_message_chunk", "a"));
  t.add("s", chunk("user_message_chunk", "b"));
  t.add("s", chunk("agent_message_chunk", "Hel"));
  t.add("s", chunk("agent_message_chunk", "lo"));
  t.add("s", { sessionUpdate: "plan", entries: [] });
  t.add("s", chunk("agent_message_chunk", "!"));
  t.add("other", chunk("agent_message_chunk", "x"));
  const u = t.updates("s");
  assert.equal(u.length, 5);
  assert.deepEqual(u[2], chunk("agent_message_chunk", "Hello"));
  t.reset("s");
  assert.equal(t.updates("s").length, 0);
  assert.equal(t.updates("other").length, 1);
});

test("context caps: 10 files (active first, newest next), 16 KiB selection, 200 diagnostics", () => {
  const files = Array.from({ length: 12 }, (_, i) => ({ uri: `file:///f${i}`, timestamp: i, isActive: i === 0 }));
  files[5] = { ...files[5], selectedText: "é".repeat(9000) } as (typeof files)[number];
  const diags = Array.from({ length: 3 }, (_, i) => ({ uri: `file:///d${i}`, diagnostics: Array.from({ length: 90 }, () => ({ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, message: "m" })) }));
  const c = capContext({ openFiles: files, diagnostics: diags, isTrusted: true });
  assert.equal(c.openFiles!.length, 10);
  assert.equal(c.openFiles![0].uri, "file:///f0");
  assert.equal(c.openFiles![1].uri, "file:///f11");
  assert.ok(!c.openFiles!.some((f) => f.uri === "file:///f1" || f.uri === "file:///f2"));
  const sel = c.openFiles!.find((f) => f.uri === "file:///f5")!.selectedText!;
  assert.ok(Buffer.byteLength(sel) <= 16 * 1024 && sel.length === 8192);
  assert.equal(c.diagnostics!.reduce((n, d) => n + d.diagnostics.length, 0), MAX_DIAGNOSTICS);
  assert.equal(capUtf8("abc", 2), "ab");
});

test("rankFiles puts basename prefix hits first", () => {
  const paths = ["src/app/main.ts", "docs/maintenance.md", "lib/domain.ts", "main.go", "x/m_a_i_n.txt"];
  assert.deepEqual(rankFiles("main", paths), ["main.go", "src/app/main.ts", "docs/maintenance.md", "lib/domain.ts", "x/m_a_i_n.txt"]);
  assert.deepEqual(rankFiles("zzz", paths), []);
  assert.equal(rankFiles("", paths, 2).length, 2);
});

test("sliceLines honours 1-based line and limit", () => {
  const text = "a\nb\nc\nd";
  assert.equal(sliceLines(text), text);
  assert.equal(sliceLines(text, 2), "b\nc\nd");
  assert.equal(sliceLines(text, 2, 2), "b\nc\n");
  assert.equal(sliceLines(text, null, 1), "a\n");
  assert.equal(sliceLines(text, 9, 1), "");
});

test("keepTail keeps the last bytes on a character boundary", () => {
  assert.equal(keepTail("hello", 10), "hello");
  assert.equal(keepTail("hello", 3), "llo");
  assert.equal(keepTail("aé", 1), ""); // é is two bytes: cannot be cut
  assert.equal(keepTail("aéb", 3), "éb");
});

test("pickOption prefers the first kind listed", () => {
  const opts = [
    { optionId: "a", name: "Always", kind: "allow_always" as const },
    { optionId: "o", name: "Once", kind: "allow_once" as const },
    { optionId: "r", name: "No", kind: "reject_once" as const },
  ];
  assert.equal(pickOption(opts, ["allow_once", "allow_always"]), "o");
  assert.equal(pickOption(opts, ["reject_always", "reject_once"]), "r");
  assert.equal(pickOption(opts, ["reject_always"]), null);
});

test("buildPrompt embeds text files (open buffer first), links the rest", async () => {
  const blocks = await buildPrompt(
    "look",
    [
      { uri: "file:///nonexistent/open.ts", label: "open.ts" },
      { uri: "file:///nonexistent/missing.ts", label: "missing.ts" },
      { uri: "https://example.invalid/x", label: "x" },
    ],
    (p) => (p === "/nonexistent/open.ts" ? "unsaved text" : undefined),
  );
  assert.deepEqual(blocks, [
    { type: "text", text: "look" },
    { type: "resource", resource: { uri: "file:///nonexistent/open.ts", mimeType: "text/plain", text: "unsaved text" } },
    { type: "resource_link", uri: "file:///nonexistent/missing.ts", name: "missing.ts" },
    { type: "resource_link", uri: "https://example.invalid/x", name: "x" },
  ]);
  assert.equal(userMessageUpdates("look", [{ uri: "file:///a", label: "a" }]).length, 2);
});

test("ContextSender debounces bursts and skips unchanged contexts", async () => {
  const { ContextSender } = await import("../../src/core/ideContext");
  const sent: object[] = [];
  let line = 0;
  const read = () => ({ openFiles: [{ uri: "file:///a", timestamp: 1, isActive: true, cursor: { line, character: 0 } }] });
  const sender = new ContextSender(read, async (p) => void sent.push(p), 30);
  for (line = 0; line < 5; line++) sender.schedule();
  await new Promise((r) => setTimeout(r, 120));
  assert.equal(sent.length, 1, "a burst becomes one notification");
  assert.equal((sent[0] as ReturnType<typeof read>).openFiles[0].cursor.line, 5);
  sender.schedule();
  await new Promise((r) => setTimeout(r, 120));
  assert.equal(sent.length, 1, "an unchanged context is not sent again");
  await sender.flush(true, "sess-1");
  assert.equal(sent.length, 2);
  assert.equal((sent[1] as { sessionId?: string }).sessionId, "sess-1");
  sender.dispose();
});

test("selectionInsert: a selection is a fenced block naming the file and lines; none mentions the file", () => {
  const base = { uri: "file:///w/src/a.ts", label: "src/a.ts", languageId: "typescript", startLine: 3, endLine: 4 };
  assert.deepEqual(selectionInsert({ ...base, text: "let a = 1;\nlet b = 2;" }), {
    text: "`src/a.ts` lines 3-4:\n```typescript\nlet a = 1;\nlet b = 2;\n```\n",
    mentions: [],
  });
  assert.equal(selectionInsert({ ...base, endLine: 3, text: "x\n" }).text, "`src/a.ts` line 3:\n```typescript\nx\n```\n");
  // Backticks in the code get a longer fence; plaintext gets no language.
  assert.equal(
    selectionInsert({ ...base, languageId: "plaintext", text: "a ``` b" }).text,
    "`src/a.ts` lines 3-4:\n````\na ``` b\n````\n",
  );
  assert.deepEqual(selectionInsert({ ...base, text: "  \n" }), { text: "", mentions: [{ uri: base.uri, label: base.label }] });
});

test("trust: an untrusted workspace never starts in a mode that approves without asking", () => {
  assert.deepEqual(startMode("yolo", true), { mode: "yolo" });
  assert.equal(startMode("yolo", false).mode, "default");
  assert.match(startMode("auto_edit", false).refused ?? "", /untrusted/);
  assert.deepEqual(startMode("plan", false), { mode: "plan" });
  assert.deepEqual(startMode("", false), { mode: "default" });
});

test("manifest: a workspace cannot set the settings that weaken safety", () => {
  const pkg = JSON.parse(readFileSync(path.join(__dirname, "..", "..", "package.json"), "utf8"));
  const props = pkg.contributes.configuration.properties;
  const restricted: string[] = pkg.capabilities.untrustedWorkspaces.restrictedConfigurations;
  for (const key of ["companion.approvalMode", "companion.path", "companion.args", "companion.env"]) {
    assert.ok(["machine", "application"].includes(props[key].scope), `${key} scope ${props[key].scope}`);
    assert.ok(restricted.includes(key), `${key} is not in restrictedConfigurations`);
  }
});
