// End to end inside a real VS Code: the installed extension runs the real
// companion binary on a scripted model (fixtures/flows.json) and is driven
// through its sidebar chat like a person would. Every assertion is on a real
// effect: DOM text in the webview or the workbench, or the file on disk.
//
// One code-server, one browser and one window serve every flow (starting a
// workbench is most of the cost of a flow): they run in order, each in a new
// session, so the model sees no other flow's history. The workspace carries a
// repository's hostile .vscode/settings.json throughout (flows/repo.mjs), and
// the user's settings turn the ACP trace on. The flows are in flows/*.mjs;
// the ones that change the window for good (reload, a wrong binary path) come last.

import path from "node:path";
import { after, before, test } from "node:test";
import * as badpath from "../flows/badpath.mjs";
import * as edits from "../flows/edits.mjs";
import * as reload from "../flows/reload.mjs";
import * as review from "../flows/review.mjs";
import * as repo from "../flows/repo.mjs";
import * as session from "../flows/session.mjs";
import * as tools from "../flows/tools.mjs";
import { withArtifacts } from "../lib/artifacts.mjs";
import { Chat } from "../lib/chat.mjs";
import { FIXTURES_DIR } from "../lib/env.mjs";
import { closeChatWorkbench, openChatWorkbench } from "../lib/workbench.mjs";

/** ctx is what every flow drives; flow(name, fn) runs fn(ctx), keeping screenshots and logs if it fails. */
const ctx = {
  env: null,
  browser: null,
  wb: null,
  chat: null,
  flow(name, fn) {
    return withArtifacts(name, { page: ctx.wb?.page, chat: ctx.chat, server: ctx.env?.server }, () => fn(ctx));
  },
};

before(async () => {
  Object.assign(ctx, await openChatWorkbench({
    script: path.join(FIXTURES_DIR, "flows.json"),
    files: { ...edits.FILES, ...tools.FILES, ...session.FILES, ...review.FILES, ...repo.FILES },
    settings: { "companion.trace": "verbose", "companion.env": { GEMINI_API_KEY: repo.SECRET } },
  }));
  ctx.chat = new Chat(ctx.wb);
  await ctx.flow("open", ({ chat }) => chat.open());
});

after(() => closeChatWorkbench(ctx));

test("a repository's settings cannot make the agent act without asking (trusted workspace); the trace shows the wire", () =>
  ctx.flow("repo-yolo-trusted", async () => {
    await repo.checkAsks(ctx);
    await repo.checkTrace(ctx);
  }));

edits.register(ctx);
tools.register(ctx);
session.register(ctx);
review.register(ctx);
reload.register(ctx);
badpath.register(ctx);
