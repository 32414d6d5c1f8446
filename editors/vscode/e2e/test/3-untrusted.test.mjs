// A repository's settings in an untrusted workspace (VS Code's workspace
// trust on, the folder opened in restricted mode, the user's own setting
// yolo too): the agent still asks before an edit and before a command
// (flows/repo.mjs). Its own code-server: trust is fixed when the server starts.

import path from "node:path";
import { after, before, test } from "node:test";
import * as repo from "../flows/repo.mjs";
import { withArtifacts } from "../lib/artifacts.mjs";
import { Chat } from "../lib/chat.mjs";
import { FIXTURES_DIR } from "../lib/env.mjs";
import { closeChatWorkbench, openChatWorkbench } from "../lib/workbench.mjs";

let env, browser, wb, chat;

before(async () => {
  ({ env, browser, wb } = await openChatWorkbench({
    script: path.join(FIXTURES_DIR, "flows.json"),
    files: repo.FILES,
    workspaceTrust: true,
    settings: { "companion.approvalMode": "yolo" },
  }));
  chat = new Chat(wb);
});

after(() => closeChatWorkbench({ env, browser, wb }));

test("a repository's settings cannot make the agent act without asking (untrusted workspace, user setting yolo)", () =>
  withArtifacts("repo-yolo-untrusted", { page: wb?.page, chat, server: env?.server }, async () => {
    await chat.open();
    await repo.checkAsks({ env, wb, chat });
  }));
