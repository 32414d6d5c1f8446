// A wrong companion.path, as a new user might set it: the prompt sent while
// the agent cannot start stays in the box with the error beside it, the
// banner keeps "Restart agent" and New session says why it cannot start;
// once the path is fixed the same prompt is answered.

import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { after, before, test } from "node:test";
import { withArtifacts } from "../lib/artifacts.mjs";
import { Chat } from "../lib/chat.mjs";
import { BASE_SETTINGS } from "../lib/codeServer.mjs";
import { FIXTURES_DIR, companionBin } from "../lib/env.mjs";
import { closeChatWorkbench, openChatWorkbench, WAIT_MS } from "../lib/workbench.mjs";

let env, browser, wb, chat;

before(async () => {
  ({ env, browser, wb } = await openChatWorkbench({
    script: path.join(FIXTURES_DIR, "flows.json"),
    settings: { "companion.path": "/nonexistent/companion-e2e" },
  }));
  chat = new Chat(wb);
});

after(() => closeChatWorkbench({ env, browser, wb }));

test("a prompt sent while the agent cannot start is kept; fixing the path and sending again answers it", () =>
  withArtifacts("bad-path", { page: wb?.page, chat, server: env?.server }, async () => {
    await wb.runCommand("Companion: Open Chat");
    await chat.frame.locator('#status[data-state="error"]').waitFor({ timeout: WAIT_MS });
    await chat.frame.locator("#banner button#restart-agent").waitFor({ timeout: WAIT_MS });
    // Said once, in words: the banner names the path, no raw "spawn … ENOENT".
    const banner = await chat.frame.locator("#banner .banner-text").innerText();
    assert.match(banner, /\/nonexistent\/companion-e2e does not exist/);
    assert.doesNotMatch(banner, /ENOENT|spawn/);

    await chat.send("e2e-stream: say something");
    await chat.frame.locator("#prompt-error", { hasText: "Not sent" }).waitFor({ timeout: WAIT_MS });
    assert.equal(await chat.frame.locator("#prompt-error").innerText(), "Not sent: companion is not running.");
    assert.equal(await chat.frame.locator("textarea#prompt").inputValue(), "e2e-stream: say something");
    assert.equal(await chat.frame.locator("#messages .msg-user").count(), 0);
    await chat.frame.locator("#banner button#restart-agent").waitFor({ timeout: WAIT_MS });

    await chat.frame.locator("button#new-session").click();
    await chat.frame.locator("#banner", { hasText: "Cannot start a new session" }).waitFor({ timeout: WAIT_MS });
    await chat.frame.locator("#banner button#restart-agent").waitFor({ timeout: WAIT_MS });

    // Fix the (machine-scoped, so remote) setting: the agent restarts by itself.
    await writeFile(path.join(env.server.dirs.data, "Machine", "settings.json"), JSON.stringify({ ...BASE_SETTINGS, ...env.settings, "companion.path": companionBin() }, null, 2));
    await chat.frame.locator('#status[data-state="ready"]').waitFor({ timeout: WAIT_MS });
    await chat.frame.locator("#root:not([data-session-id=''])").waitFor({ timeout: WAIT_MS });
    await chat.frame.locator("button#send").click();
    await chat.agentMessage("scripted model.").waitFor({ timeout: WAIT_MS });
    await chat.frame.locator("#prompt-error").waitFor({ state: "hidden", timeout: WAIT_MS });
  }));
