// Forms an MCP server asks for (elicitation/create): the schema's fields,
// the questions put through the editor, and server-everything's whole form
// through the real agent.

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type * as acp from "@agentclientprotocol/sdk";
import { askForm, formFields, parseNumber } from "../../src/core/forms";
import { FakeEditor, start, turnEnded } from "./helpers";

const SCHEMA = {
  type: "object" as const,
  properties: {
    pet: { type: "string" as const, title: "Pet", enum: ["p1", "p2"], enumNames: ["Cats", "Dogs"] },
    age: { type: "integer" as const, title: "Age", minimum: 1, maximum: 120 },
    name: { type: "string" as const, title: "Name", description: "Your name" },
    fish: { type: "array" as const, title: "Fish", items: { anyOf: [{ const: "f1", title: "Tuna" }, { const: "f2", title: "Trout" }] } },
    ok: { type: "boolean" as const, title: "Agree" },
  },
  required: ["name", "age"],
} as acp.ElicitationSchema;

const request = (schema = SCHEMA) => ({ mode: "form", message: "Tell me about you", sessionId: "s", requestedSchema: schema }) as acp.CreateElicitationRequest;
const never = new AbortController().signal;

test("formFields: required first as listed, then by name; choices from enum, enumNames and titled anyOf", () => {
  const fields = formFields(SCHEMA as never);
  assert.deepEqual(fields.map((f) => f.name), ["name", "age", "fish", "ok", "pet"]);
  assert.equal(fields[0].label, "Name (Your name)");
  assert.deepEqual(fields.find((f) => f.name === "pet")!.choices, [{ value: "p1", label: "Cats" }, { value: "p2", label: "Dogs" }]);
  assert.deepEqual(fields.find((f) => f.name === "fish")!.choices, [{ value: "f1", label: "Tuna" }, { value: "f2", label: "Trout" }]);
  const age = fields[1];
  assert.equal(parseNumber(age, "42"), 42);
  assert.match(String(parseNumber(age, "4.5")), /not an integer/);
  assert.match(String(parseNumber(age, "200")), /between 1 and 120/);
});

test("askForm asks every field in order and sends typed values", async () => {
  const editor = new FakeEditor();
  editor.onPick = (prompt, labels, many) => (prompt === "Tell me about you" ? [0] : many ? [0, 1] : labels[0] === "Yes" ? [1] : [1]);
  editor.onInput = (prompt) => (prompt.includes("Name") ? "Ada" : prompt.includes("Age") ? "36" : undefined);
  const answer = await askForm(editor, request(), never);
  assert.deepEqual(answer, { action: "accept", content: { name: "Ada", age: 36, fish: ["f1", "f2"], ok: false, pet: "p2" } });
  assert.deepEqual(editor.asked.map((a) => a.prompt.split(" — ")[1] ?? a.prompt), [
    "Tell me about you", "Name (Your name)", "Age", "Fish (optional)", "Agree (optional)", "Pet (optional)"]);
});

test("askForm: Decline declines; dismissing any prompt cancels", async () => {
  const declining = new FakeEditor();
  declining.onPick = () => [1];
  assert.deepEqual(await askForm(declining, request(), never), { action: "decline" });
  const dismissing = new FakeEditor();
  dismissing.onPick = () => [0];
  dismissing.onInput = () => undefined;
  assert.deepEqual(await askForm(dismissing, request(), never), { action: "cancel" });
  assert.equal(dismissing.asked.length, 2, "the form stops at the dismissed field");
});

// server-everything is installed by `make test-deps` for the Go tests.
const everything = path.resolve(__dirname, "../../../../tools/mcp/testdata/npm/node_modules/@modelcontextprotocol/server-everything/dist/index.js");

test("an MCP server's whole form is asked through the editor and the answer reaches it", {
  skip: existsSync(everything) ? false : "server-everything is not installed (make test-deps)",
}, async (t) => {
  const home = await realpath(await mkdtemp(path.join(tmpdir(), "companion-vsc-home-")));
  t.after(() => rm(home, { recursive: true, force: true }));
  await mkdir(path.join(home, ".config", "companion"), { recursive: true });
  await writeFile(path.join(home, ".config", "companion", "settings.json"),
    JSON.stringify({ mcpServers: { everything: { command: "node", args: [everything, "stdio"] } } }));
  const { editor, controller } = await start(t, [
    { chunks: [{ functionCall: { name: "mcp_everything_trigger_elicitation_request", args: {} } }] },
    { match: "Name: VS Code User", chunks: [{ text: "The form came back." }] },
  ], { home, approvalMode: "yolo" });
  editor.onPick = () => [0];
  editor.onInput = (prompt, value) => (prompt.includes("legal name") ? "VS Code User" : value);
  // The first prompt waits for MCP servers only briefly, and Node may start
  // server-everything more slowly on a loaded machine; its prompts listed
  // as commands say it has connected.
  await editor.waitFor("server-everything's prompts among the commands", () =>
    editor.posted.some((m) => m.type === "update" && m.update.sessionUpdate === "available_commands_update" &&
      m.update.availableCommands.some((c) => c.name.startsWith("everything:"))));
  await controller.handle({ type: "prompt", text: "sign me up", mentions: [] });
  await turnEnded(editor);
  assert.equal(editor.agentText(), "The form came back.");
  assert.match(editor.asked[0].prompt, /^MCP server everything: Please provide/);
  assert.match(editor.asked[1].prompt, /String \(Your full, legal name\)$/);
  assert.ok(editor.asked.some((a) => a.many), "a multiple choice field was asked as one");
});
