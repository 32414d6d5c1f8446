// The compact permission card in headless Chromium: what it shows, its
// keyboard answers, and that it never takes the keyboard from the prompt box.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { deliver, fixture, launch, open, startServer, waitPosted } from "./harness.mjs";

let server;
let browser;
let fx;

before(async () => {
  fx = await fixture();
  server = await startServer();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

test("a permission card answers from the keyboard without taking it: Enter allows this time, Esc rejects; an edit's card has Review", async () => {
  const page = await open(browser, server.url);
  await deliver(page, fx.live.slice(0, 2)); // status ready, session
  const perms = fx.live.filter((m) => m.type === "permission");
  const edit = perms.find((p) => p.inDiffEditor);
  const exec = perms.find((p) => !p.inDiffEditor);
  // The user is typing the next prompt when the card arrives: the box keeps the keyboard.
  await page.click("#prompt");
  await page.keyboard.type("next ");
  await deliver(page, [edit]);
  const card = page.locator(`.permission[data-request-id="${edit.requestId}"]`);
  await card.waitFor();
  await page.keyboard.type("prompt");
  assert.equal(await page.inputValue("#prompt"), "next prompt");
  assert.equal(await page.evaluate(() => document.activeElement?.id), "prompt");
  // Review asks the extension to bring the diff editor to the front.
  await card.locator("button.permission-review").click();
  await waitPosted(page, "reviewDiff", { requestId: edit.requestId });
  // Enter on the focused card allows this time.
  await card.focus();
  await page.keyboard.press("Enter");
  const allow = edit.options.find((o) => o.kind === "allow_once");
  await waitPosted(page, "permissionResponse", { requestId: edit.requestId, optionId: allow.optionId });
  await page.waitForSelector(`.permission[data-request-id="${edit.requestId}"][data-state="answered"]`);
  // With nothing focused, Esc rejects the newest pending card.
  await deliver(page, [exec]);
  const second = page.locator(`.permission[data-request-id="${exec.requestId}"]`);
  await second.waitFor();
  await page.evaluate(() => document.activeElement?.blur());
  await page.keyboard.press("Escape");
  const reject = exec.options.find((o) => o.kind === "reject_once");
  await waitPosted(page, "permissionResponse", { requestId: exec.requestId, optionId: reject.optionId });
  assert.deepEqual(await page.problems(), [], "console errors or CSP violations");
});

/** planCard is a plan to approve as the extension forwards it (exit_plan_mode's card). */
const planCard = (requestId, sessionId) => ({
  type: "permission",
  requestId,
  sessionId,
  inDiffEditor: false,
  toolCall: {
    toolCallId: `call-${requestId}`,
    title: "Ready to start: approve the plan",
    kind: "switch_mode",
    status: "pending",
    content: [{ type: "content", content: { type: "text", text: "# Bump the version\n\n1. Write **v1** to `f.txt`\n2. Check it" } }],
  },
  options: [
    { optionId: "plan_accept_edits", name: "Start, accepting edits automatically", kind: "allow_always" },
    { optionId: "plan_ask_edits", name: "Start, asking before each edit", kind: "allow_once" },
    { optionId: "plan_keep", name: "Keep planning", kind: "reject_once" },
  ],
});

test("a plan to approve shows the plan as markdown and every choice; Keep planning sends the note", async () => {
  const page = await open(browser, server.url);
  await deliver(page, fx.live.slice(0, 2)); // status ready, session
  const sessionId = fx.live[1].sessionId;
  // The tool call's own card shows the plan as markdown too.
  await deliver(page, [{ type: "update", sessionId, update: { sessionUpdate: "tool_call", ...planCard("plan-1", sessionId).toolCall } }]);
  assert.equal(await page.locator('[data-kind="switch_mode"] .tool-output h1').textContent(), "Bump the version");
  await deliver(page, [planCard("plan-1", sessionId)]);
  const card = page.locator('.permission[data-request-id="plan-1"]');
  await card.waitFor();
  assert.equal(await card.getAttribute("data-tool-kind"), "switch_mode");
  assert.equal(await card.locator(".permission-plan h1").textContent(), "Bump the version");
  assert.equal(await card.locator(".permission-plan ol > li").count(), 2);
  assert.equal(await card.locator(".permission-plan li strong").textContent(), "v1");
  assert.equal(await card.locator(".permission-plan li code").textContent(), "f.txt");
  // Every choice is a visible button: each starts a different mode.
  const names = await card.locator("button.permission-option:visible").allTextContents();
  assert.deepEqual(names, ["Start, accepting edits automatically", "Start, asking before each edit", "Keep planning"]);
  await card.locator("textarea.permission-plan-note").fill("  split step 1 ");
  await card.locator('button[data-option-id="plan_keep"]').click();
  await waitPosted(page, "permissionResponse", { requestId: "plan-1", optionId: "plan_keep", message: "split step 1" });
  await page.waitForSelector('.permission[data-request-id="plan-1"][data-state="answered"] details.permission-plan-wrap');
  // A start choice goes without the note.
  await deliver(page, [planCard("plan-2", sessionId)]);
  const second = page.locator('.permission[data-request-id="plan-2"]');
  await second.locator("textarea.permission-plan-note").fill("not sent");
  await second.locator('button[data-option-id="plan_accept_edits"]').click();
  const sent = await waitPosted(page, "permissionResponse", { requestId: "plan-2", optionId: "plan_accept_edits" });
  assert.equal(sent.message, undefined);
  assert.deepEqual(await page.problems(), [], "console errors or CSP violations");
});
