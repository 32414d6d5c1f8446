// companion's `_companion/lsp`: VS Code's answers converted to LSP's shapes,
// the request's checks, and, against the real agent, a navigation tool and
// an edit's diagnostics answered by the editor, with the session's language
// server lines reaching the status bar.

import { test } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import {
  lspDiagnostics,
  lspHover,
  lspLocations,
  lspSymbol,
  lspWorkspaceEdit,
  parseLanguageRequest,
} from "../../src/core/language";
import { CLIENT_CAPABILITIES } from "../../src/core/connection";
import { formatLanguageServers } from "../../src/core/stats";
import { start, turnEnded } from "./helpers";

const uri = (p: string) => ({ toString: () => `file://${p}` });
const range = (line: number, from: number, to: number) => ({ start: { line, character: from }, end: { line, character: to } });

test("language: VS Code's answers become LSP's shapes", () => {
  assert.deepEqual(
    lspLocations([
      { uri: uri("/w/a.go"), range: range(3, 5, 10) },
      { targetUri: uri("/w/b.go"), targetRange: range(0, 0, 9), targetSelectionRange: range(2, 4, 8) },
      {},
    ]),
    [
      { uri: "file:///w/a.go", range: range(3, 5, 10) },
      { uri: "file:///w/b.go", range: range(2, 4, 8) },
    ],
  );
  assert.deepEqual(lspHover([{ contents: [{ value: "func Hello() string", language: "go" }, "Hello greets."] }]), {
    contents: { kind: "markdown", value: "```go\nfunc Hello() string\n```\n\nHello greets." },
  });
  assert.equal(lspHover([{ contents: [" "] }]), null);
  // VS Code's SymbolKind.Function is 11, LSP's 12.
  assert.deepEqual(lspSymbol({ name: "T", kind: 22, range: range(1, 0, 5), selectionRange: range(1, 5, 6), children: [{ name: "M", kind: 5, range: range(2, 0, 1) }] }), {
    name: "T",
    kind: 23,
    detail: undefined,
    range: range(1, 0, 5),
    selectionRange: range(1, 5, 6),
    children: [{ name: "M", kind: 6, detail: undefined, range: range(2, 0, 1), selectionRange: range(2, 0, 1), children: undefined }],
  });
  assert.deepEqual(lspSymbol({ name: "Hello", kind: 11, location: { uri: uri("/w/a.go"), range: range(3, 0, 1) }, containerName: "greet" }), {
    name: "Hello",
    kind: 12,
    location: { uri: "file:///w/a.go", range: range(3, 0, 1) },
    containerName: "greet",
  });
  assert.deepEqual(lspWorkspaceEdit([[uri("/w/a.go"), [{ range: range(3, 5, 10), newText: "Greet" }]]]), {
    changes: { "file:///w/a.go": [{ range: range(3, 5, 10), newText: "Greet" }] },
  });
  assert.deepEqual(lspDiagnostics([{ range: range(3, 1, 2), severity: 0, message: "declared and not used: x", source: "compiler", code: { value: "UnusedVar" } }]), {
    kind: "full",
    items: [{ range: range(3, 1, 2), severity: 1, message: "declared and not used: x", source: "compiler", code: "UnusedVar" }],
  });
});

test("language: requests are checked; the capability is advertised", () => {
  const ok = parseLanguageRequest({ sessionId: "s", path: "/w/a.go", method: "textDocument/rename", params: { textDocument: { uri: "file:///w/a.go" }, position: { line: 1, character: 2 }, newName: "B" } });
  assert.deepEqual(ok, { sessionId: "s", path: "/w/a.go", method: "textDocument/rename", position: { line: 1, character: 2 }, newName: "B" });
  assert.throws(() => parseLanguageRequest({ path: "a.go", method: "textDocument/hover" }), /absolute/);
  assert.throws(() => parseLanguageRequest({ path: "/w/a.go", method: "textDocument/formatting" }), /method must be one of/);
  assert.throws(() => parseLanguageRequest({ path: "/w/a.go", method: "textDocument/definition", params: {} }), /needs params.position/);
  assert.equal((CLIENT_CAPABILITIES._meta as { companion: { lsp: boolean } }).companion.lsp, true);
  assert.equal(formatLanguageServers([]), "Language servers: none for this workspace");
  assert.equal(formatLanguageServers(["gopls is not installed (gopls is not on PATH); install it with: go install golang.org/x/tools/gopls@latest"]),
    "Language servers:\n- gopls is not installed (gopls is not on PATH); install it with: go install golang.org/x/tools/gopls@latest");
});

test("language: the agent's definition tool and an edit's diagnostics are answered by the editor", async (t) => {
  const def = { name: "lsp_definition", args: { file_path: "main.ts", line: 1, symbol: "hello" } };
  const write = { name: "write_file", args: { file_path: "main.ts", content: "hello(1);\n" } };
  const h = await start(t, [
    { match: "lang-where", chunks: [{ functionCall: def }] },
    { match: "lib.ts:2: export function hello", chunks: [{ functionCall: write }] },
    { match: "Expected 0 arguments", chunks: [{ text: "The editor found the error." }] },
  ], { files: { "main.ts": "hello();\n", "lib.ts": "// the greeting\nexport function hello() {}\n" }, approvalMode: "yolo" });
  const lib = path.join(h.workspace, "lib.ts");
  h.editor.onLanguage = (req) => {
    if (req.method === "textDocument/definition") return { available: true, result: [{ uri: `file://${lib}`, range: range(1, 16, 21) }] };
    if (req.method === "textDocument/diagnostic") {
      return { available: true, result: { kind: "full", items: [{ range: range(0, 6, 7), severity: 1, source: "ts", message: "Expected 0 arguments, but got 1." }] } };
    }
    return { available: false };
  };
  await h.editor.waitFor("the agent ready", () => h.editor.posted.some((m) => m.type === "status" && m.state === "ready"));
  const from = h.editor.posted.length;
  await h.controller.handle({ type: "prompt", text: "lang-where is hello", mentions: [] });
  const end = await turnEnded(h.editor, from);
  assert.equal(end.error, undefined, end.error);
  assert.deepEqual(h.editor.languageAsked.map((r) => [r.method, r.path]), [
    ["textDocument/definition", path.join(h.workspace, "main.ts")],
    ["textDocument/diagnostic", path.join(h.workspace, "main.ts")],
  ]);
  assert.deepEqual(h.editor.languageAsked[0].position, { line: 0, character: 0 });
  const said = h.editor.posted.slice(from).some((m) => JSON.stringify(m).includes("The editor found the error."));
  assert.ok(said, "the model never read the editor's diagnostics");
  const shown = await h.editor.waitFor("language servers in the status bar", () => h.editor.statuses.find((s) => s.stats?.languageServers)?.stats);
  assert.match(formatLanguageServers(shown.languageServers), /the editor: its own language features are asked first/);
});
