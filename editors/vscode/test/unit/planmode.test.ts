// Plans the user approves (exit_plan_mode) and the agent's own questions
// (ask_user) against the real agent: the plan card's content and choices,
// each choice leading to its mode and plan, the note sent with "Keep
// planning", and the question form with its choices described.

import { test } from "node:test";
import assert from "node:assert/strict";
import type { ToWebview } from "../../src/webviewProtocol";
import { start, turnEnded, type ScriptTurn } from "./helpers";

const PLAN = "# Bump the version\n\n1. Write **v1** to `f.txt`\n2. Check it";

const planTurns = (read: string): ScriptTurn[] => [
  { chunks: [{ functionCall: { name: "exit_plan_mode", args: { plan: PLAN } } }] },
  // Only a request carrying what the choice tells the model matches.
  { match: read, chunks: [{ text: "Understood." }] },
];

for (const c of [
  { choice: "plan_accept_edits", mode: "auto_edit", read: "now in auto_edit mode", plan: true },
  { choice: "plan_ask_edits", mode: "default", read: "now in default mode", plan: true },
  { choice: "plan_keep", mode: undefined, read: "Their note: split step 1", plan: false, message: "  split step 1 " },
]) {
  test(`a plan answered ${c.choice} leads to ${c.mode ?? "plan"} mode`, async (t) => {
    const { editor, controller } = await start(t, planTurns(c.read), { approvalMode: "plan", files: { "f.txt": "v0\n" } });
    const turn = controller.handle({ type: "prompt", text: "bump the version", mentions: [] });
    const card = await editor.waitFor("the plan card", () => editor.posted.find((m): m is ToWebview & { type: "permission" } => m.type === "permission"));
    assert.equal(card.toolCall.kind, "switch_mode");
    assert.deepEqual(card.options.map((o) => o.optionId), ["plan_accept_edits", "plan_ask_edits", "plan_keep"]);
    assert.ok(JSON.stringify(card.toolCall.content).includes("Write **v1** to `f.txt`"), "the card carries the plan");
    const from = editor.posted.length;
    await controller.handle({ type: "permissionResponse", requestId: card.requestId, optionId: c.choice, message: c.message });
    await turn;
    await turnEnded(editor);
    assert.equal(editor.agentText(), "Understood.", "the model read what the choice means");
    const after = editor.posted.slice(from).flatMap((m) => (m.type === "update" ? [m.update] : []));
    const modes = after.flatMap((u) => (u.sessionUpdate === "current_mode_update" ? [u.currentModeId] : []));
    assert.deepEqual(modes, c.mode ? [c.mode] : [], "the mode follows the choice");
    const plans = after.flatMap((u) => (u.sessionUpdate === "plan" ? [u.entries.map((e) => e.content)] : []));
    assert.deepEqual(plans.at(-1), c.plan ? ["Write **v1** to `f.txt`", "Check it"] : undefined, "the plan's steps become the plan");
  });
}

test("ask_user's questions: choices with their descriptions, 'Other' in the user's words asked only when picked", async (t) => {
  const { editor, controller } = await start(t, [
    { chunks: [{ functionCall: { name: "ask_user", args: { questions: [
      { header: "Storage", question: "Where should sessions be stored?", options: [
        { label: "SQLite", description: "One file, queries" }, { label: "JSONL", description: "Append-only files" }] },
      { header: "Extras", question: "Which extras do you want?", multiSelect: true, options: [
        { label: "Export" }, { label: "Search" }, { label: "Sync" }] },
    ] } } }] },
    { match: "1. Storage: in their own words: Postgres, we run it already\\n2. Extras: Export; Sync", chunks: [{ text: "Postgres it is." }] },
  ]);
  editor.onPick = (_prompt, labels, many) => (labels[0] === "Fill in the form" ? [0] : many ? [0, 2] : [labels.length - 1]);
  editor.onInput = () => "Postgres, we run it already";
  await controller.handle({ type: "prompt", text: "store the sessions", mentions: [] });
  await turnEnded(editor);
  assert.equal(editor.agentText(), "Postgres it is.");
  const labels = editor.asked.map((a) => a.labels);
  assert.deepEqual(labels[1], ["SQLite — One file, queries", "JSONL — Append-only files", "Other — Answer in your own words below."]);
  assert.deepEqual(labels[3], ["Export", "Search", "Sync", "Other — Answer in your own words below."]);
  // The form, Storage, Storage's own words (right after it), Extras; no own words for Extras.
  assert.equal(editor.asked.length, 4, JSON.stringify(editor.asked));
  assert.match(editor.asked[2].prompt, /Storage: other/);
});
