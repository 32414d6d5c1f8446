// @-mentions as Zed sends them in session/prompt: an embedded `resource`
// (the file's text, since companion advertises embeddedContext) or a
// `resource_link` the agent resolves itself, through the editor's buffers.

import assert from "node:assert/strict";
import path from "node:path";
import { test } from "node:test";
import { pathToFileURL } from "node:url";
import * as acp from "@agentclientprotocol/sdk";
import { TEST_TIMEOUT_MS, start, withTimeout } from "../lib/harness.js";

test("an embedded resource and a resource_link both reach the model", { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const reads = [];
  const h = await start(t, {
    files: { "b.txt": "text on disk\n" },
    script: {
      // Each turn matches only a model request carrying the mentioned text.
      turns: [
        { match: "embedded-marker", chunks: [{ text: "Seen the embedded file." }] },
        { match: "unsaved-buffer-marker", chunks: [{ text: "Seen the linked file." }] },
      ],
      fallback: "error",
    },
    readTextFile: ({ params }) => {
      reads.push(params);
      return { content: "unsaved-buffer-marker\n" };
    },
  });
  const init = await h.initialize({ fs: { readTextFile: true, writeTextFile: true } });
  assert.equal(init.agentCapabilities.promptCapabilities.embeddedContext, true);
  const { sessionId } = await h.newSession();
  const prompt = (blocks) => withTimeout(h.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: blocks }), "prompt");

  const embedded = { uri: pathToFileURL(path.join(h.workspace, "a.go")).href, mimeType: "text/x-go", text: "package embedded-marker\n" };
  const r1 = await prompt([{ type: "text", text: "explain this" }, { type: "resource", resource: embedded }]);
  assert.equal(r1.stopReason, "end_turn");
  assert.deepEqual(reads, [], "an embedded resource needs no read");

  const linked = path.join(h.workspace, "b.txt");
  const r2 = await prompt([{ type: "text", text: "and this" }, { type: "resource_link", uri: pathToFileURL(linked).href, name: "b.txt" }]);
  assert.equal(r2.stopReason, "end_turn");
  assert.deepEqual(reads.map((r) => r.path), [linked], "the link was read through fs/read_text_file, unsaved text included");
  await h.close();
});
