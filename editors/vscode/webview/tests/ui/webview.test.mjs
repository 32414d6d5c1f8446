// The webview UI in headless Chromium, driven by a session recorded from the
// real companion binary (tests/fixtures/session.json, made by
// tests/record/record.mjs). The page runs under the extension's CSP; any
// violation or console error fails the test.

import assert from "node:assert/strict";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { deliver, fixture, launch, open, posted, startServer, waitPosted } from "./harness.mjs";

let server;
let browser;
let fx;
let shots;

before(async () => {
  fx = await fixture();
  server = await startServer();
  browser = await launch();
  shots = process.env.WEBVIEW_SHOTS ?? (await mkdtemp(path.join(tmpdir(), "companion-webview-shots-")));
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** upTo returns the live messages before the first one matching pred. */
function upTo(msgs, pred) {
  const i = msgs.findIndex(pred);
  assert.ok(i >= 0, "fixture lacks the expected message");
  return [msgs.slice(0, i), msgs.slice(i)];
}

async function noProblems(page) {
  assert.deepEqual(await page.problems(), [], "console errors or CSP violations");
}

/** echo is the user_message_chunk the extension sends for a prompt it forwards. */
function echo(sessionId, content) {
  return { type: "update", sessionId, update: { sessionUpdate: "user_message_chunk", content } };
}

async function startSession(page) {
  await deliver(page, fx.live.slice(0, 2)); // status ready, session
}

test("a recorded turn renders: markdown, code, thoughts, tool cards, plan, permissions, usage", async () => {
  const page = await open(browser, server.url);
  assert.deepEqual(await posted(page), [{ type: "ready" }]);
  await startSession(page);
  assert.equal(await page.getAttribute("#status", "data-state"), "ready");

  // The user sends the prompt the fixture was recorded with.
  await page.fill("#prompt", fx.prompt);
  await page.press("#prompt", "Enter");
  await waitPosted(page, "prompt", { text: fx.prompt, mentions: [] });
  assert.equal(await page.inputValue("#prompt"), "");
  await page.waitForSelector(`.msg-user:has-text("${fx.prompt}")`);
  // The extension echoes the prompt as user_message_chunk (agents do not): still one message.
  await deliver(page, [echo(fx.live[1].sessionId, { type: "text", text: fx.prompt })]);
  assert.equal(await page.locator(".msg-user").count(), 1);

  // Stream up to the first permission request: the edit, shown in the diff editor.
  const [beforePerm, rest] = upTo(fx.live.slice(2), (m) => m.type === "permission");
  await deliver(page, [...beforePerm, rest[0]]);
  assert.equal(await page.getAttribute("#root", "data-turn"), "running");
  assert.equal(await page.isVisible("#cancel"), true);
  assert.equal(await page.isDisabled("#send"), true);
  const card = page.locator(`.permission[data-request-id="${rest[0].requestId}"]`);
  assert.equal(await card.getAttribute("data-in-diff-editor"), "true");
  assert.match(await card.innerText(), /open in the diff editor/);
  const optionIds = await card.locator("button.permission-option").evaluateAll((bs) => bs.map((b) => b.dataset.optionId));
  assert.deepEqual(optionIds, rest[0].options.map((o) => o.optionId));
  const chosen = rest[0].options[0].optionId;
  await card.locator(`button.permission-option[data-option-id="${chosen}"]`).click();
  await waitPosted(page, "permissionResponse", { requestId: rest[0].requestId, optionId: chosen });
  // The card re-renders on the next frame.
  await page.waitForSelector(`.permission[data-request-id="${rest[0].requestId}"][data-state="answered"]`);
  assert.equal(await card.locator("button").count(), 0);

  // The rest of the turn, as recorded.
  await deliver(page, rest.slice(1));
  assert.equal(await page.getAttribute("#root", "data-turn"), "idle");
  assert.equal(await page.isVisible("#cancel"), false);

  // Streamed markdown with a highlighted Go block (the fence was split across chunks).
  const answer = page.locator(".msg-agent").last();
  assert.equal(await answer.locator("strong").innerText(), "friendlier");
  assert.equal(await answer.locator("pre code.language-go .hljs-keyword").first().innerText(), "func");
  assert.match(await answer.locator("pre code").innerText(), /fmt\.Println\("hello, world"\)/);
  assert.equal(await answer.locator("li").count(), 2);
  assert.equal(await answer.getAttribute("data-streaming"), "false");

  // The thought is collapsed, and its markdown rendered.
  const thought = page.locator("details.thought").first();
  assert.equal(await thought.getAttribute("open"), null);
  assert.equal(await thought.locator("summary").innerText(), "Thought");
  assert.equal(await thought.locator(".markdown strong").textContent(), "plan");

  // Tool cards with final statuses, kinds, a diff and a clickable location.
  const read = page.locator('.tool-call[data-kind="read"]');
  assert.equal(await read.getAttribute("data-status"), "completed");
  const loc = read.locator("a.tool-location");
  assert.equal(await loc.innerText(), "main.go:1");
  await loc.click();
  await waitPosted(page, "openLocation", { path: "/home/user/project/main.go", line: 1 });
  const edit = page.locator('.tool-call[data-kind="edit"]');
  assert.equal(await edit.getAttribute("data-status"), "completed");
  assert.match(await edit.locator(".diff-add").innerText(), /hello, world/);
  assert.match(await edit.locator(".diff-del").innerText(), /"hi"/);
  assert.equal(await page.locator('.tool-call[data-kind="execute"]').getAttribute("data-status"), "completed");
  assert.equal(await page.locator(".tool-call").count(), 5);

  // Plan checklist, usage, title, pickers.
  const statuses = await page.locator("#plan li.plan-entry").evaluateAll((ls) => ls.map((l) => l.dataset.status));
  assert.deepEqual(statuses, ["completed", "completed", "completed"]);
  assert.equal(await page.getAttribute("#usage", "data-used"), "1300");
  assert.match(await page.innerText("#usage"), /1\.3k \/ 1\.05M tokens/);
  assert.equal(await page.innerText("#session-title"), fx.prompt);
  assert.equal(await page.inputValue("#mode-picker"), "default");
  assert.equal(await page.inputValue("#thought-picker"), "auto");
  await page.selectOption("#model-picker", "gemini-2.5-flash");
  await waitPosted(page, "setConfigOption", { configId: "model", value: "gemini-2.5-flash" });

  await page.screenshot({ path: path.join(shots, "recorded-turn-top.png") });
  await page.evaluate(() => { const m = document.querySelector("#messages"); m.scrollTop = m.scrollHeight; });
  await page.screenshot({ path: path.join(shots, "recorded-turn-end.png") });
  await noProblems(page);
});

test("a second permission card answers with its own option; cancel posts cancel and ends unfinished calls", async () => {
  const page = await open(browser, server.url);
  await startSession(page);
  const live = fx.live.slice(2);
  const perms = live.filter((m) => m.type === "permission");
  const exec = perms.find((p) => !p.inDiffEditor);
  const [before] = upTo(live, (m) => m === exec);
  await deliver(page, [...before.filter((m) => m.type !== "permission" || m === exec), exec].filter((m) => m.type !== "permissionDone"));
  const card = page.locator(`.permission[data-request-id="${exec.requestId}"]`);
  assert.equal(await card.getAttribute("data-in-diff-editor"), "false");
  const reject = exec.options.find((o) => o.kind.startsWith("reject"));
  // Compact: the primary choice and "More"; the other options one click away.
  assert.equal(await card.locator("button.permission-option.primary").innerText(), exec.options.find((o) => o.kind === "allow_once").name);
  assert.equal(await card.locator(`button[data-option-id="${reject.optionId}"]`).isVisible(), false);
  await card.locator("button.permission-more").click();
  await card.locator(`button[data-option-id="${reject.optionId}"]`).click();
  await waitPosted(page, "permissionResponse", { requestId: exec.requestId, optionId: reject.optionId });

  // The command starts in an editor terminal: the card says so.
  const after = live.slice(live.indexOf(exec) + 1);
  const withTerminal = after.findIndex((m) => m.update?.content?.some?.((c) => c.type === "terminal"));
  assert.ok(withTerminal >= 0, "fixture has a terminal update");
  await deliver(page, after.slice(0, withTerminal + 1).filter((m) => m.type !== "permissionDone"));
  const term = page.locator(`.tool-call[data-tool-call-id="${exec.toolCall.toolCallId}"] .tool-terminal`);
  assert.equal(await term.getAttribute("data-terminal-id"), after[withTerminal].update.content[0].terminalId);
  assert.match(await term.innerText(), /Running in a terminal/);
  // Its last lines come as the extension's terminalOutput; the link focuses the terminal.
  const terminalId = after[withTerminal].update.content[0].terminalId;
  const sid = exec.sessionId;
  await deliver(page, [{ type: "update", sessionId: sid, update: { sessionUpdate: "tool_call_update", toolCallId: exec.toolCall.toolCallId, _meta: { companion: { terminalOutput: { terminalId, tail: "line 7\nqa-shell-42", exit: "exit code 0" } } } } }]);
  await page.waitForSelector(`.tool-call[data-tool-call-id="${exec.toolCall.toolCallId}"] .terminal-tail:has-text("qa-shell-42")`);
  assert.equal(await term.locator(".terminal-tail").innerText(), "line 7\nqa-shell-42");
  assert.match(await term.innerText(), /Ran in a terminal · exit code 0/);
  await term.locator("a.terminal-link").click();
  await waitPosted(page, "focusTerminal", { terminalId });
  // A refused call is "rejected", not a red "failed".
  await deliver(page, [
    { type: "update", sessionId: sid, update: { sessionUpdate: "tool_call", toolCallId: "refused-1", title: "Edit x.txt", kind: "edit", status: "pending" } },
    { type: "update", sessionId: sid, update: { sessionUpdate: "tool_call_update", toolCallId: "refused-1", status: "failed", _meta: { companion: { outcome: "rejected" } } } },
  ]);
  const refused = page.locator('.tool-call[data-tool-call-id="refused-1"]');
  await page.waitForSelector('.tool-call[data-tool-call-id="refused-1"][data-status="rejected"]');
  assert.equal(await refused.locator(".tool-status").innerText(), "rejected");
  assert.notEqual(
    await refused.locator(".tool-status").evaluate((el) => getComputedStyle(el).color),
    await page.evaluate(() => { const p = document.createElement("span"); p.className = "tool-status"; p.dataset.status = "failed"; document.body.append(p); const c = getComputedStyle(p).color; p.remove(); return c; }),
    "not the failure colour",
  );

  await page.click("#cancel");
  await waitPosted(page, "cancel");
  await deliver(page, [{ type: "turn", sessionId: exec.sessionId, state: "idle", stopReason: "cancelled" }]);
  assert.equal(await page.locator(`.tool-call[data-tool-call-id="${exec.toolCall.toolCallId}"]`).getAttribute("data-status"), "cancelled");
  await page.waitForSelector('.system-line[data-kind="turn-end"]:has-text("Cancelled")');
  await noProblems(page);
});

test("slash commands complete from available_commands_update", async () => {
  const page = await open(browser, server.url);
  await startSession(page);
  const cmds = fx.live.find((m) => m.type === "update" && m.update.sessionUpdate === "available_commands_update");
  await deliver(page, [cmds]);
  const names = cmds.update.availableCommands.map((c) => c.name);

  await page.focus("#prompt");
  await page.keyboard.type("/");
  await page.waitForSelector("#completion:not([hidden])");
  assert.equal(await page.getAttribute("#completion", "data-mode"), "slash");
  assert.equal(await page.locator("#completion .completion-item").count(), names.length);

  await page.screenshot({ path: path.join(shots, "slash-completion.png") });
  await page.keyboard.type("co");
  const filtered = await page.locator("#completion .completion-item").evaluateAll((els) => els.map((e) => e.dataset.value));
  assert.ok(filtered.length > 0 && filtered.length < names.length, `filtered ${filtered}`);
  assert.ok(filtered[0].startsWith("co"), `prefix matches first: ${filtered}`);

  await page.keyboard.press("ArrowDown");
  const second = filtered[1 % filtered.length];
  assert.equal(await page.getAttribute(`#completion .completion-item[data-value="${second}"]`, "aria-selected"), "true");
  await page.keyboard.press("Tab");
  assert.equal(await page.inputValue("#prompt"), `/${second} `);
  assert.equal(await page.isHidden("#completion"), true);

  // Enter with the popup closed sends the command as the prompt.
  await page.keyboard.press("Enter");
  await waitPosted(page, "prompt", { text: `/${second}`, mentions: [] });
  await noProblems(page);
});

test("@ mentions search files through the extension and become chips sent with the prompt", async () => {
  const page = await open(browser, server.url);
  await startSession(page);
  await page.focus("#prompt");
  await page.keyboard.type("Explain @mai");
  const search = await waitPosted(page, "searchFiles", { query: "mai" });
  const file = { uri: "file:///home/user/project/main.go", label: "main.go", description: "project" };
  await deliver(page, [{ type: "files", requestId: search.requestId, items: [file, { uri: "file:///home/user/project/domain.go", label: "domain.go" }] }]);
  await page.waitForSelector(`#completion .completion-item[data-value="${file.uri}"]`);
  assert.equal(await page.getAttribute("#completion", "data-mode"), "mention");
  await page.keyboard.press("Enter");
  await page.waitForSelector(`#mentions .mention-chip[data-uri="${file.uri}"]`);
  assert.equal(await page.inputValue("#prompt"), "Explain @main.go ");

  // Shift+Enter is a newline, Enter sends.
  await page.keyboard.press("Shift+Enter");
  await page.keyboard.type("briefly");
  await page.keyboard.press("Enter");
  await waitPosted(page, "prompt", { text: "Explain @main.go \nbriefly", mentions: [file] });
  await page.waitForSelector(`.msg-user .mention-chip[data-uri="${file.uri}"]`);
  const sid = fx.live[1].sessionId;
  await deliver(page, [echo(sid, { type: "text", text: "Explain @main.go \nbriefly" }), echo(sid, { type: "resource_link", uri: file.uri, name: file.label })]);
  assert.equal(await page.locator(".msg-user").count(), 1);
  assert.equal(await page.locator(".msg-user .mention-chip").count(), 1);
  assert.equal(await page.locator("#mentions .mention-chip").count(), 0);
  await noProblems(page);
});

test("history lists sessions, loads one, and renders the replayed conversation idempotently", async () => {
  const page = await open(browser, server.url);
  await startSession(page);
  await page.click("#history-toggle");
  await waitPosted(page, "listSessions");
  assert.equal(await page.getAttribute("#history-toggle", "aria-expanded"), "true");
  await deliver(page, [fx.sessions]);
  const id = fx.sessions.sessions[0].sessionId;
  const entry = page.locator(`#history-list button.history-entry[data-session-id="${id}"]`);
  assert.match(await entry.innerText(), /friendlier greeting/);
  await page.screenshot({ path: path.join(shots, "history.png") });
  await entry.click();
  await waitPosted(page, "loadSession", { sessionId: id });
  assert.equal(await page.isHidden("#history"), true);

  const replayTwice = async () => {
    await deliver(page, fx.replay);
    return page.locator("#messages [data-item-id]").count();
  };
  const first = await replayTwice();
  assert.equal(await page.locator(".msg-user").count(), 1);
  assert.equal(await page.innerText(".msg-user .user-text"), fx.prompt);
  assert.equal(await page.locator(".tool-call").count(), 5);
  assert.match(await page.locator(".msg-agent").last().innerText(), /friendlier/);
  // The extension replays again on `ready`: a session message resets, nothing doubles.
  assert.equal(await replayTwice(), first);
  await noProblems(page);
});

test("the view comes back from getState after a reload, draft included", async () => {
  const page = await open(browser, server.url);
  await startSession(page);
  await deliver(page, fx.live.slice(2));
  await page.fill("#prompt", "a draft");
  await page.waitForFunction(() => (sessionStorage.getItem("vscode-state") ?? "").includes("a draft"));
  const itemsBefore = await page.locator("#messages [data-item-id]").count();

  await page.reload();
  await page.waitForSelector("#messages .msg-agent");
  // Nothing was delivered after the reload: this is the restored state.
  assert.deepEqual(await posted(page), [{ type: "ready" }]);
  assert.equal(await page.locator("#messages [data-item-id]").count(), itemsBefore);
  assert.equal(await page.inputValue("#prompt"), "a draft");
  assert.equal(await page.locator(".msg-agent pre code.language-go").count(), 1);
  assert.equal(await page.locator("#plan li.plan-entry").count(), 3);
  assert.equal(await page.innerText("#session-title"), fx.prompt);

  // Then the extension replays the session on `ready`: the restored transcript
  // stays until replayDone, then the replayed one replaces it in one frame.
  const replayDone = fx.replay.findIndex((m) => m.type === "replayDone");
  const firstEl = await page.locator("#messages [data-item-id]").first().getAttribute("data-item-id");
  await deliver(page, fx.replay.slice(0, replayDone));
  assert.equal(await page.getAttribute("#messages", "aria-busy"), "true");
  assert.equal(await page.locator("#messages [data-item-id]").first().getAttribute("data-item-id"), firstEl);
  assert.equal(await page.locator("#messages [data-item-id]").count(), itemsBefore);
  await deliver(page, fx.replay.slice(replayDone));
  assert.equal(await page.getAttribute("#messages", "aria-busy"), "false");
  assert.notEqual(await page.locator("#messages [data-item-id]").first().getAttribute("data-item-id"), firstEl);
  assert.equal(await page.locator(".msg-user").count(), 1);
  assert.equal(await page.locator(".tool-call").count(), 5);
  await noProblems(page);
});

test("status, errors, notices and compaction show as banners and system lines", async () => {
  const page = await open(browser, server.url);
  await startSession(page);
  const sid = fx.live[1].sessionId;
  await deliver(page, [{ type: "status", state: "error", message: "companion exited with code 2" }]);
  assert.equal(await page.getAttribute("#banner", "data-kind"), "error");
  assert.match(await page.innerText("#banner"), /exited with code 2/);
  await page.click("#restart-agent");
  await waitPosted(page, "restartAgent");
  await deliver(page, [{ type: "status", state: "ready" }]);
  assert.equal(await page.isHidden("#banner"), true);

  await deliver(page, [
    { type: "update", sessionId: sid, update: { sessionUpdate: "notice", severity: "warning", title: "MCP server failed", description: "docs: exited" } },
    { type: "update", sessionId: sid, update: { sessionUpdate: "compaction_update", compactionId: "c1", status: "in_progress" } },
    { type: "update", sessionId: sid, update: { sessionUpdate: "compaction_summary_chunk", compactionId: "c1", content: { type: "text", text: "We edited **main.go**." } } },
    { type: "update", sessionId: sid, update: { sessionUpdate: "compaction_update", compactionId: "c1", status: "completed" } },
    { type: "update", sessionId: sid, update: { sessionUpdate: "usage_update", used: 950, size: 1000, cost: { amount: 0.0123, currency: "USD" } } },
    { type: "error", message: "Could not open the file." },
  ]);
  assert.match(await page.innerText('.system-line[data-kind="notice"]'), /MCP server failed: docs: exited/);
  assert.equal(await page.getAttribute('.system-line[data-kind="notice"]', "data-severity"), "warning");
  assert.equal(await page.locator('.system-line[data-kind="compaction"]').count(), 1);
  assert.match(await page.innerText('.system-line[data-kind="compaction"] summary'), /Conversation compacted/);
  assert.match(await page.innerText("#usage"), /950 \/ 1k tokens · \$0\.0123/);
  assert.equal(await page.getAttribute("#usage-fill", "data-level"), "high");
  await page.screenshot({ path: path.join(shots, "system-lines.png") });
  assert.match(await page.innerText("#banner"), /Could not open the file/);
  await page.click("#banner .banner-dismiss");
  await page.waitForSelector("#banner", { state: "hidden" });

  await noProblems(page);
});

test("a prompt sent while the agent cannot start comes back to the box; Restart and New session stay usable", async () => {
  const page = await open(browser, server.url);
  const spawn = "spawn /nope/companion ENOENT";
  await deliver(page, [{ type: "status", state: "error", message: spawn }]);
  assert.match(await page.innerText("#banner"), /ENOENT/);
  await page.fill("#prompt", "keep this prompt");
  await page.press("#prompt", "Enter");
  await waitPosted(page, "prompt", { text: "keep this prompt" });
  // The extension could not deliver it: it says so (and posts its error too).
  await deliver(page, [
    { type: "promptFailed", text: "keep this prompt", mentions: [], error: spawn },
    { type: "error", message: spawn },
  ]);
  await page.waitForSelector("#prompt-error:visible");
  assert.match(await page.innerText("#prompt-error"), /Not sent: .*ENOENT/);
  assert.equal(await page.inputValue("#prompt"), "keep this prompt", "the prompt is back in the box");
  assert.equal(await page.locator(".msg-user").count(), 0, "not shown as sent");
  await page.click("#restart-agent");
  await waitPosted(page, "restartAgent");
  await page.click("#new-session");
  await waitPosted(page, "newSession");
  // Fixed: the agent is ready, the session arrives, the prompt is sent from the box.
  await deliver(page, [{ type: "status", state: "ready" }, { type: "session", sessionId: "s-ok", cwd: "/w", replaying: false }]);
  await page.press("#prompt", "Enter");
  const sent = await page.evaluate(() => window.__posted.filter((m) => m.type === "prompt").length);
  assert.equal(sent, 2);
  await page.waitForSelector("#prompt-error", { state: "hidden" });
  assert.equal(await page.inputValue("#prompt"), "");
  await noProblems(page);
});

test("new session, inserted text, and every control has an accessible name", async () => {
  const page = await open(browser, server.url);
  await startSession(page);
  await deliver(page, fx.live.slice(2));
  await page.click("#new-session");
  await waitPosted(page, "newSession");

  const file = { uri: "file:///home/user/project/util.go", label: "util.go" };
  await deliver(page, [{ type: "insertText", text: "Why does this fail?", mentions: [file] }]);
  assert.equal(await page.inputValue("#prompt"), "Why does this fail?");
  await page.waitForSelector(`#mentions .mention-chip[data-uri="${file.uri}"]`);
  await page.click(`#mentions .mention-chip[data-uri="${file.uri}"] .mention-remove`);
  assert.equal(await page.locator("#mentions .mention-chip").count(), 0);

  const unnamed = await page.evaluate(() =>
    [...document.querySelectorAll("button, select, textarea, a, summary")]
      .filter((el) => !(el.getAttribute("aria-label") || el.textContent.trim()))
      .map((el) => el.outerHTML.slice(0, 80)),
  );
  assert.deepEqual(unnamed, []);

  // The keyboard reaches the history: Enter opens it, the focus moves to the first entry, Escape closes it.
  await page.focus("#history-toggle");
  await page.keyboard.press("Enter");
  await waitPosted(page, "listSessions");
  await deliver(page, [fx.sessions]);
  assert.equal(await page.evaluate(() => document.activeElement.className), "history-entry");
  await page.keyboard.press("Escape");
  await page.waitForSelector("#history", { state: "hidden" });
  assert.equal(await page.evaluate(() => document.activeElement.id), "history-toggle");
  await noProblems(page);
});

test("agent markdown cannot break the CSP or inject markup; workspace links open files", async () => {
  const page = await open(browser, server.url);
  await startSession(page);
  const sid = fx.live[1].sessionId;
  const nasty = 'See [main](src/main.go#L3) and [docs](https://example.com). <img src="https://example.com/x.png" alt="remote"> <span style="color:red">red</span> <script>window.__pwned = 1</script> <a href="javascript:window.__pwned=2">js</a> ![remote](https://example.com/y.png) [js2](javascript:window.__pwned=3)';
  await deliver(page, [{ type: "update", sessionId: sid, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: nasty } } }]);
  const msg = page.locator(".msg-agent");
  assert.equal(await msg.locator("script").count(), 0);
  assert.equal(await msg.locator("[style]").count(), 0);
  assert.equal(await msg.locator("img[src]").count(), 0);
  assert.equal(await msg.locator('a[href^="javascript:"]').count(), 0);
  await msg.locator('a:has-text("main")').click();
  await waitPosted(page, "openLocation", { path: "/home/user/project/src/main.go", line: 3 });
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  await noProblems(page);

  // The detector itself works: markup with a style attribute is reported.
  await page.evaluate(() => {
    const d = document.createElement("div");
    d.innerHTML = '<p style="color: red">x</p>';
    document.body.append(d);
  });
  await page.waitForFunction(() => window.__cspViolations.length > 0);
  assert.match((await page.problems()).join("\n"), /style-src/);
});

test("streaming re-renders only the growing message, at most once per frame", async () => {
  const page = await open(browser, server.url);
  await startSession(page);
  const sid = fx.live[1].sessionId;
  const chunk = (text) => ({ type: "update", sessionId: sid, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text } } });
  await deliver(page, [chunk("First answer."), { type: "update", sessionId: sid, update: { sessionUpdate: "tool_call", toolCallId: "t1", title: "Read a", kind: "read", status: "completed" } }]);

  const result = await page.evaluate(async (chunks) => {
    const touched = new Set();
    let bodyRenders = 0;
    const obs = new MutationObserver((records) => {
      for (const r of records) {
        const item = r.target.closest?.("[data-item-id]");
        touched.add(item ? item.className : r.target.id);
        if (r.target.classList?.contains("markdown")) bodyRenders++;
      }
    });
    obs.observe(document.querySelector("#messages"), { childList: true, subtree: true, attributes: true, characterData: true });
    window.__deliver(chunks); // 300 chunks within one task
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    obs.disconnect();
    return { touched: [...touched], bodyRenders };
  }, Array.from({ length: 300 }, (_, i) => chunk(i === 0 ? "Second " : `w${i} `)));

  assert.deepEqual(result.touched.filter((c) => c !== "messages"), ["msg msg-agent"], "only the new message changed");
  assert.ok(result.bodyRenders <= 2, `markdown rendered ${result.bodyRenders} times for 300 chunks`);
  assert.match(await page.locator(".msg-agent").last().innerText(), /^Second w1 w2 .* w299\s*$/s);
  await noProblems(page);
});

test("text typed into the page's plain prompt box before the script ran is kept", async () => {
  const context = await browser.newContext({ viewport: { width: 420, height: 900 } });
  const page = await context.newPage();
  try {
    // The extension's page carries a plain prompt box (src/core/html.ts); the script is slow to come.
    await page.route("**/harness", async (route) => {
      const res = await route.fetch();
      const html = (await res.text()).replace('<div id="root"></div>', '<div id="root"><div class="composer"><textarea id="prompt" rows="3"></textarea></div></div>');
      await route.fulfill({ response: res, body: html });
    });
    let release;
    const held = new Promise((r) => (release = r));
    await page.route("**/media/webview.js", async (route) => {
      await held;
      await route.continue();
    });
    // Not waiting for "load": that needs the held script.
    await page.goto(server.url, { waitUntil: "commit" });
    await page.click("textarea#prompt");
    await page.keyboard.type("typed early");
    assert.equal(await page.locator("#messages").count(), 0, "the script has not built the view yet");
    release();
    await page.waitForSelector("#root #messages");
    assert.equal(await page.inputValue("#prompt"), "typed early");
    assert.equal(await page.evaluate(() => document.activeElement?.id), "prompt", "the focus stays in the box");
    await page.keyboard.type(" and more");
    assert.equal(await page.inputValue("#prompt"), "typed early and more");
  } finally {
    await context.close();
  }
});

test("Rewind to here: hidden until the agent offers it, confirmed inline, then the fork and the prompt come back", async () => {
  const page = await open(browser, server.url);
  const user = (sessionId, t, id) => ({ type: "update", sessionId, update: { sessionUpdate: "user_message_chunk", content: { type: "text", text: t }, messageId: id } });
  const agent = (sessionId, t) => ({ type: "update", sessionId, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: t } } });
  const history = [
    { type: "session", sessionId: "s1", cwd: "/w", replaying: true },
    user("s1", "first prompt", "u1"), agent("s1", "answer one"),
    user("s1", "second prompt", "u2"), agent("s1", "answer two"),
    { type: "replayDone", sessionId: "s1" },
  ];
  await deliver(page, [{ type: "status", state: "ready" }, ...history]);
  const second = page.locator(".msg-user", { hasText: "second prompt" });
  await second.waitFor();
  assert.equal(await page.getAttribute("#messages", "data-rewind"), "off");
  await second.hover();
  assert.equal(await second.locator("button.rewind-action").isVisible(), false, "no rewind without the capability");

  await deliver(page, [{ type: "status", state: "ready", canRewind: true }, { type: "turn", sessionId: "s1", state: "running" }]);
  await page.waitForSelector('#messages[data-rewind="off"]');
  await deliver(page, [{ type: "turn", sessionId: "s1", state: "idle", stopReason: "end_turn" }]);
  await page.waitForSelector('#messages[data-rewind="on"]');
  await page.hover("#prompt");
  assert.equal(await second.locator("button.rewind-action").isVisible(), false, "shown on hover only");
  await second.hover();
  await second.locator("button.rewind-action").click();
  const box = second.locator(".rewind-box");
  await box.waitFor();
  assert.match(await box.innerText(), /restored to how they were/);
  await box.locator("button.rewind-cancel").click();
  await box.waitFor({ state: "detached" });
  assert.equal(await page.evaluate(() => window.__posted.filter((m) => m.type === "rewind").length), 0, "cancel sends nothing");

  await second.hover();
  await second.locator("button.rewind-action").click();
  await second.locator("button.rewind-confirm").click();
  await waitPosted(page, "rewind", { prompt: 1 });
  await page.waitForSelector('#messages[data-rewind="off"]');
  await page.fill("#prompt", "typed meanwhile");
  await deliver(page, [
    { type: "session", sessionId: "s2", cwd: "/w", replaying: true },
    user("s2", "first prompt", "u1"), agent("s2", "answer one"),
    { type: "replayDone", sessionId: "s2" },
    { type: "rewound", sessionId: "s2", text: "second prompt", mentions: [{ uri: "file:///w/a.txt", label: "a.txt" }], restored: ["/w/a.txt"] },
  ]);
  await page.waitForSelector('#root[data-session-id="s2"]');
  await page.waitForSelector('#messages :text("Rewound. Restored 1 file to before that message: a.txt.")');
  assert.equal(await page.locator(".msg-user").count(), 1);
  assert.equal(await page.inputValue("#prompt"), "second prompt\ntyped meanwhile", "the rewound prompt is in the box, what was typed kept");
  assert.equal(await page.locator(".composer .mention-chip", { hasText: "a.txt" }).count(), 1);
  assert.equal(await page.getAttribute("#messages", "data-rewind"), "on");

  // Rewinding again, to the first prompt: its text replaces the first rewind's, it does not stack on it.
  const first = page.locator(".msg-user", { hasText: "first prompt" });
  await first.hover();
  await first.locator("button.rewind-action").click();
  await first.locator("button.rewind-confirm").click();
  await waitPosted(page, "rewind", { prompt: 0 });
  await deliver(page, [
    { type: "session", sessionId: "s3", cwd: "/w", replaying: false },
    { type: "rewound", sessionId: "s3", text: "first prompt", mentions: [], restored: [] },
  ]);
  await page.waitForSelector('#root[data-session-id="s3"]');
  await page.waitForFunction(() => document.querySelector("#prompt").value.startsWith("first prompt"));
  assert.equal(await page.inputValue("#prompt"), "first prompt\ntyped meanwhile", "one rewound prompt in the box, what was typed kept");
  assert.equal(await page.locator(".composer .mention-chip").count(), 0, "the earlier rewind's mention went with its text");
  await noProblems(page);
});
