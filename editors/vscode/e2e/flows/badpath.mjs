// A wrong companion.path, as a new user might set it: the prompt sent while
// the agent cannot start stays in the box with the error beside it, the
// banner keeps "Restart agent" and New session says why it cannot start;
// once the path is fixed the same prompt is answered. The setting is
// changed under the running window (the agent restarts by itself), so this
// shares the workbench of the other flows.

import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { BASE_SETTINGS } from "../lib/codeServer.mjs";
import { companionBin } from "../lib/env.mjs";
import { WAIT_MS } from "../lib/workbench.mjs";

/** setPath rewrites the (machine-scoped, so remote) settings with companion.path = bin. */
function setPath(env, bin) {
  const file = path.join(env.server.dirs.data, "Machine", "settings.json");
  return writeFile(file, JSON.stringify({ ...BASE_SETTINGS, ...env.settings, "companion.path": bin }, null, 2));
}

/** register adds the flow as a test of ctx's workbench (see 2-chat.test.mjs). */
export function register(ctx) {
  test("a prompt sent while the agent cannot start is kept; fixing the path and sending again answers it", () =>
    ctx.flow("bad-path", async ({ env, chat }) => {
      await setPath(env, "/nonexistent/companion-e2e");
      await chat.frame.locator('#status[data-state="error"]').waitFor({ timeout: WAIT_MS });
      await chat.frame.locator("#banner button#restart-agent").waitFor({ timeout: WAIT_MS });
      // Said once, in words: the banner names the path, no raw "spawn … ENOENT".
      const banner = await chat.frame.locator("#banner .banner-text").innerText();
      assert.match(banner, /\/nonexistent\/companion-e2e does not exist/);
      assert.doesNotMatch(banner, /ENOENT|spawn/);

      const shown = await chat.frame.locator("#messages .msg-user").count();
      await chat.send("e2e-stream: say something");
      await chat.frame.locator("#prompt-error", { hasText: "Not sent" }).waitFor({ timeout: WAIT_MS });
      assert.equal(await chat.frame.locator("#prompt-error").innerText(), "Not sent: companion is not running.");
      assert.equal(await chat.frame.locator("textarea#prompt").inputValue(), "e2e-stream: say something");
      assert.equal(await chat.frame.locator("#messages .msg-user").count(), shown, "the prompt is not shown as sent");
      await chat.frame.locator("#banner button#restart-agent").waitFor({ timeout: WAIT_MS });

      await chat.frame.locator("button#new-session").click();
      await chat.frame.locator("#banner", { hasText: "Cannot start a new session" }).waitFor({ timeout: WAIT_MS });
      await chat.frame.locator("#banner button#restart-agent").waitFor({ timeout: WAIT_MS });

      await setPath(env, companionBin());
      await chat.frame.locator('#status[data-state="ready"]').waitFor({ timeout: WAIT_MS });
      await chat.frame.locator("#root:not([data-session-id=''])").waitFor({ timeout: WAIT_MS });
      await chat.frame.locator("button#send").click();
      await chat.agentMessage("scripted model.").waitFor({ timeout: WAIT_MS });
      await chat.frame.locator("#prompt-error").waitFor({ state: "hidden", timeout: WAIT_MS });
    }));
}
