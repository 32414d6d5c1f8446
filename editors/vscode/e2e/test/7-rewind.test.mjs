// "Rewind to here" on a user message, as a user does it: two prompts each
// edit a file, the user rewinds to the second one and confirms. The file on
// disk is back to what the first prompt left, the chat shows the fork with
// one user message, the prompt box holds the second prompt's text, and a
// notice names the restored file. Runs only when $COMPANION_BIN advertises
// `agentCapabilities._meta.companion.rewind` (skipped otherwise, and the
// action must then not show at all).

import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { after, before, test } from "node:test";
import { withArtifacts } from "../lib/artifacts.mjs";
import { Chat } from "../lib/chat.mjs";
import { FIXTURES_DIR, agentAdvertises } from "../lib/env.mjs";
import { waitFor } from "../lib/wait.mjs";
import { closeChatWorkbench, openChatWorkbench, WAIT_MS } from "../lib/workbench.mjs";

let env, browser, wb, chat;


const supported = await agentAdvertises("rewind");

before(async () => {
  ({ env, browser, wb } = await openChatWorkbench({
    script: path.join(FIXTURES_DIR, "rewind.json"),
    files: { "rewind.txt": "original\n" },
    settings: { "companion.approvalMode": "auto_edit" },
  }));
  chat = new Chat(wb);
  await flow("open", () => chat.open());
});

after(() => closeChatWorkbench({ env, browser, wb }));

function flow(name, fn) {
  return withArtifacts(name, { page: wb?.page, chat, server: env?.server }, fn);
}

/** fileHolds waits until rewind.txt on disk holds text. */
function fileHolds(text) {
  const file = path.join(env.workspace, "rewind.txt");
  return waitFor(async () => ((await readFile(file, "utf8")) === text ? true : undefined), {
    what: async () => `rewind.txt to hold ${JSON.stringify(text)} (now ${JSON.stringify(await readFile(file, "utf8"))})`,
  });
}

async function prompt(text, answer) {
  await chat.send(text);
  await chat.agentMessage(answer).waitFor({ timeout: WAIT_MS });
  await chat.waitIdle();
}

test("rewind to the second prompt restores the file and gives the prompt back", { skip: !supported && "the companion binary does not advertise rewind" }, () =>
  flow("rewind", async () => {
    await prompt("e2e-rw-one: write the first version", "Writing the first version.");
    await fileHolds("first version\n");
    await prompt("e2e-rw-two: write the second version", "Writing the second version.");
    await fileHolds("second version\n");
    const original = await chat.root().getAttribute("data-session-id");

    const second = chat.frame.locator("#messages .msg-user", { hasText: "e2e-rw-two" });
    await chat.frame.locator('#messages[data-rewind="on"]').waitFor({ timeout: WAIT_MS });
    await second.hover();
    await second.locator("button.rewind-action").click();
    const box = second.locator(".rewind-box");
    await box.waitFor({ timeout: WAIT_MS });
    assert.match(await box.innerText(), /restored to how they were/);
    assert.equal(await fileHolds("second version\n"), true, "nothing changes before the confirmation");
    await box.locator("button.rewind-confirm").click();

    await fileHolds("first version\n");
    await chat.frame.locator(`#root[data-session-id]:not([data-session-id="${original}"])`).waitFor({ timeout: WAIT_MS });
    await chat.frame.locator("#messages", { hasText: "Rewound. Restored 1 file" }).waitFor({ timeout: WAIT_MS });
    await chat.frame.locator('#messages[aria-busy="false"]').waitFor({ timeout: WAIT_MS });
    assert.equal(await chat.frame.locator("#messages .msg-user").count(), 1, await chat.transcriptText());
    await chat.frame.locator("#messages .msg-user", { hasText: "e2e-rw-one" }).waitFor({ timeout: WAIT_MS });
    assert.equal(await chat.frame.locator("textarea#prompt").inputValue(), "e2e-rw-two: write the second version");

    // The original conversation stays in the history, as the fork's parent.
    await chat.frame.locator("button#history-toggle").click();
    await chat.frame.locator(`#history-list button.history-entry[data-session-id="${original}"]`).waitFor({ timeout: WAIT_MS });
    await chat.frame.locator("button#history-toggle").click();
  }));

test("without the agent's capability no rewind action shows", { skip: supported && "the companion binary advertises rewind" }, () =>
  flow("no-rewind", async () => {
    await prompt("e2e-rw-one: write the first version", "Writing the first version.");
    const user = chat.frame.locator("#messages .msg-user", { hasText: "e2e-rw-one" });
    await user.hover();
    assert.equal(await chat.frame.locator("#messages").getAttribute("data-rewind"), "off");
    assert.equal(await user.locator("button.rewind-action").isVisible(), false);
  }));
