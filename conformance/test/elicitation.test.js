// MCP elicitation through the editor: a server's form (server-everything's,
// with every kind of field) reaches the official client library as
// elicitation/create, valid against the pinned schema, and the user's
// answer reaches the server.

import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { test } from "node:test";
import { TEST_TIMEOUT_MS, start, textOf, withTimeout } from "../lib/harness.js";

// The MCP test servers `make test-deps` installs for the Go tests.
const everything = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "tools", "mcp", "testdata", "npm",
  "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js");

test("an MCP server's form is asked through elicitation/create and the answer returns", {
  timeout: TEST_TIMEOUT_MS,
  skip: existsSync(everything) ? false : "server-everything is not installed (make test-deps)",
}, async (t) => {
  const asked = [];
  const h = await start(t, {
    script: {
      turns: [
        { chunks: [{ functionCall: { name: "mcp_everything_trigger_elicitation_request", args: {} } }] },
        { match: "Name: Grace Hopper", chunks: [{ text: "Thanks, Grace." }] },
      ],
      fallback: "error",
    },
    requestPermission: ({ params }) => ({ outcome: { outcome: "selected", optionId: params.options.find((o) => o.kind === "allow_once").optionId } }),
    elicit: ({ params }) => {
      asked.push(params);
      return { action: "accept", content: { name: "Grace Hopper", check: true, untitledMultipleSelectEnum: ["Piano"] } };
    },
  });
  await h.initialize({ elicitation: { form: {} } });
  const s = await h.newSession({ mcpServers: [{ name: "everything", command: "node", args: [everything, "stdio"], env: [] }] });
  // The first prompt waits for MCP servers only briefly; Node may start
  // server-everything more slowly on a loaded machine. Its prompts listed
  // as commands say it has connected.
  await h.waitUpdate(s.sessionId, "available_commands_update",
    (u) => u.availableCommands.some((c) => c.name.startsWith("everything:")));
  const done = await withTimeout(h.prompt(s.sessionId, "ask me"), "prompt");
  assert.equal(done.stopReason, "end_turn");
  assert.match(textOf(h.updates(s.sessionId)), /Thanks, Grace\./);
  assert.equal(asked.length, 1);
  assert.equal(asked[0].mode, "form");
  assert.equal(asked[0].sessionId, s.sessionId);
  assert.ok(asked[0].requestedSchema.properties.titledSingleSelectEnum.oneOf.length === 3, "titled enums survive");
  await h.close();
});
