// The extension inside a real VS Code: activation, commands, settings, an
// agent write through an undoable WorkspaceEdit, a prompt round trip and an
// edit accepted in the diff editor with the user's change, all against the
// real companion binary ($COMPANION_BIN) on a scripted model.

import * as assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import * as vscode from "vscode";
import type { CompanionApi } from "../../src/vscode/extension";

const EXTENSION_ID = "companion.companion";
const COMMANDS = [
  "companion.openChat",
  "companion.newSession",
  "companion.cancel",
  "companion.acceptDiff",
  "companion.rejectDiff",
  "companion.restart",
  "companion.setApiKey",
  "companion.showLog",
];

/** until polls cond (at most ms) so the suite fails instead of hanging. */
async function until<T>(what: string, cond: () => T | undefined | false | Promise<T | undefined | false>, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await cond();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** agentEnv points the agent's home and XDG folders into home. */
function agentEnv(home: string): Record<string, string> {
  return { HOME: home, XDG_CONFIG_HOME: path.join(home, ".config"), XDG_STATE_HOME: path.join(home, ".state"), XDG_DATA_HOME: path.join(home, ".local", "share") };
}

function workspaceDir(): string {
  const f = vscode.workspace.workspaceFolders?.[0];
  assert.ok(f, "the suite needs a workspace folder");
  return f.uri.fsPath;
}

function agentText(api: CompanionApi): string {
  const id = api.controller.currentSessionId;
  if (!id) return "";
  return api.controller.transcript
    .updates(id)
    .map((u) => (u.sessionUpdate === "agent_message_chunk" && u.content.type === "text" ? u.content.text : ""))
    .join("");
}

describe("companion extension", () => {
  let api: CompanionApi;
  let script: string;
  let home: string;

  before(async () => {
    const bin = process.env.COMPANION_BIN;
    assert.ok(bin && existsSync(bin), `COMPANION_BIN must name the companion binary (got ${bin})`);
    const ext = vscode.extensions.getExtension<CompanionApi>(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is not installed`);
    api = await ext.activate();
    const dir = mkdtempSync(path.join(tmpdir(), "companion-suite-"));
    script = path.join(dir, "script.json");
    // The agent gets a home of its own: the developer's settings (a provider, a
    // model) must not reach the scripted model's agent.
    home = path.join(dir, "home");
    mkdirSync(home);
    writeFileSync(
      script,
      JSON.stringify({
        turns: [
          { match: "suite round trip", chunks: [{ text: "Round " }, { text: "trip works." }] },
          { match: "suite edit", chunks: [{ functionCall: { name: "write_file", args: { file_path: "edited.txt", content: "agent proposal\n" } } }] },
          { match: "suite close", chunks: [{ functionCall: { name: "write_file", args: { file_path: "closed.txt", content: "unwanted\n" } } }] },
          { match: '"functionResponse"', chunks: [{ text: "Edit done." }], times: 5 },
        ],
      }),
    );
    const cfg = vscode.workspace.getConfiguration("companion");
    await cfg.update("env", agentEnv(home), vscode.ConfigurationTarget.Global);
    await cfg.update("path", bin, vscode.ConfigurationTarget.Global);
    await cfg.update("args", ["--script", script], vscode.ConfigurationTarget.Global);
    await until("the agent to be ready", () => api.controller.supervisor.connection);
  });

  it("activates and registers every command", async () => {
    const all = await vscode.commands.getCommands(true);
    for (const c of COMMANDS) assert.ok(all.includes(c), `${c} is registered`);
  });

  it("reads its settings", () => {
    const cfg = vscode.workspace.getConfiguration("companion");
    assert.deepEqual(cfg.get("args"), ["--script", script]);
    assert.equal(cfg.get("approvalMode"), "default");
    assert.deepEqual(cfg.get("env"), agentEnv(home));
    assert.equal(cfg.get("model"), "");
  });

  it("writes through an undoable WorkspaceEdit and saves", async () => {
    const file = path.join(workspaceDir(), "undo-me.txt");
    writeFileSync(file, "original\n");
    const doc = await vscode.workspace.openTextDocument(file);
    await vscode.window.showTextDocument(doc);
    await api.editor.writeFile(file, "agent text\n");
    assert.equal(readFileSync(file, "utf8"), "agent text\n");
    assert.equal(doc.isDirty, false);
    await vscode.commands.executeCommand("undo");
    assert.equal(doc.getText(), "original\n");
    const created = path.join(workspaceDir(), "sub", "created.txt");
    await api.editor.writeFile(created, "brand new\n");
    assert.equal(readFileSync(created, "utf8"), "brand new\n");
  });

  it("runs a prompt round trip with the scripted model", async () => {
    await vscode.commands.executeCommand("companion.openChat");
    await api.controller.prompt("suite round trip", []);
    assert.equal(agentText(api), "Round trip works.");
  });

  it("reviews an edit in the diff editor and accepts the user's change", async () => {
    const file = path.join(workspaceDir(), "edited.txt");
    writeFileSync(file, "before\n");
    const turn = api.controller.prompt("suite edit", []);
    // The proposal opens beside undo-me.txt (a file of the user's is open) and leaves that one active.
    const right = await until("the proposal diff editor", () => proposalTab()?.input.modified);
    assert.ok(!(vscode.window.tabGroups.activeTabGroup.activeTab?.input instanceof vscode.TabInputTextDiff), "the user's file stays the active editor");
    const doc = await vscode.workspace.openTextDocument(right);
    assert.equal(doc.getText(), "agent proposal\n");
    const edit = new vscode.WorkspaceEdit();
    edit.replace(right, new vscode.Range(0, 0, doc.lineCount, 0), "user improved\n");
    assert.ok(await vscode.workspace.applyEdit(edit));
    await vscode.commands.executeCommand("companion.acceptDiff");
    await turn;
    assert.equal(readFileSync(file, "utf8"), "user improved\n");
    assert.equal(api.diffs.count, 0, "the review is closed");
    assert.ok(agentText(api).endsWith("Edit done."));
  });

  it("answers companion's language questions with VS Code's TypeScript features", async function () {
    this.timeout(90_000);
    const dir = path.join(workspaceDir(), "lang");
    mkdirSync(dir, { recursive: true });
    const a = path.join(dir, "a.ts");
    const b = path.join(dir, "b.ts");
    const notes = path.join(dir, "notes.txt");
    writeFileSync(a, "export function hello(name: string): string {\n  return name;\n}\n");
    writeFileSync(b, 'import { hello } from "./a";\nhello("x");\n');
    writeFileSync(notes, "hello\n");
    const ask = api.editor.language!.bind(api.editor);
    // The TypeScript server starts with the first TypeScript file and loads the project: wait for a.ts.
    let last: unknown;
    // TypeScript's server starts with the first TypeScript file. Its answer is
    // the declaration in a.ts or, before the project is loaded, the import in
    // b.ts: both on line 0, and either proves VS Code answered.
    const def = await until("TypeScript's definition", async () => {
      try {
        const r = await ask({ sessionId: "s", path: b, method: "textDocument/definition", position: { line: 1, character: 0 } });
        last = r;
        const locs = (r.available && Array.isArray(r.result) ? r.result : []) as { uri: string; range: { start: { line: number } } }[];
        return locs.find((l) => [a, b].includes(vscode.Uri.parse(l.uri).fsPath));
      } catch (err) {
        last = String(err);
        return undefined;
      }
    }, 60_000).catch((err: Error) => {
      throw new Error(`${err.message}; the last answer: ${JSON.stringify(last)}`);
    });
    assert.equal(def.range.start.line, 0, "hello is declared (and imported) on line 0");
    const syms = await ask({ sessionId: "s", path: a, method: "textDocument/documentSymbol" });
    assert.deepEqual((syms.result as { name: string; kind: number }[]).map((x) => [x.name, x.kind]), [["hello", 12]], "hello is an LSP Function (12)");
    const renamed = await ask({ sessionId: "s", path: b, method: "textDocument/rename", position: { line: 1, character: 0 }, newName: "greet" });
    const changes = (renamed.result as { changes: Record<string, { newText: string }[]> }).changes;
    const edited = Object.keys(changes).map((u) => vscode.Uri.parse(u).fsPath);
    assert.ok(edited.includes(b), `the rename edits b.ts (it edits ${edited.join(", ")})`);
    // TypeScript may rename the import's alias only ("hello as greet").
    assert.ok(Object.values(changes).flat().every((e) => e.newText.includes("greet")), JSON.stringify(changes));
    assert.equal(readFileSync(b, "utf8").includes("greet"), false, "the editor only proposes the rename: companion applies it");
    assert.deepEqual(await ask({ sessionId: "s", path: notes, method: "textDocument/hover", position: { line: 0, character: 0 } }), { available: false });
  });

  // The tab is closed as soon as it shows, while the workbench may still be
  // attaching the diff's models: its "Model is disposed!" must not leave the
  // turn waiting on a card nobody answers (issue 28).
  it("treats closing the diff tab as a rejection", async () => {
    const file = path.join(workspaceDir(), "closed.txt");
    writeFileSync(file, "keep\n");
    const turn = api.controller.prompt("suite close", []);
    const tab = await until("the proposal diff editor", () => proposalTab());
    await vscode.window.tabGroups.close(tab);
    await turn;
    assert.equal(readFileSync(file, "utf8"), "keep\n");
    assert.equal(api.diffs.count, 0);
  });
});

/** proposalTab is the tab of an open proposal diff editor, in any group. */
function proposalTab(): (vscode.Tab & { input: vscode.TabInputTextDiff }) | undefined {
  return vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .find((t): t is vscode.Tab & { input: vscode.TabInputTextDiff } => t.input instanceof vscode.TabInputTextDiff && t.input.modified.scheme === "companion-proposal");
}
