import assert from "node:assert/strict";
import { test } from "node:test";
import * as acp from "@agentclientprotocol/sdk";
import { TEST_TIMEOUT_MS, rpcError, start } from "../lib/harness.js";

test("initialize negotiates v1 and advertises truthful capabilities", { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const h = await start(t);
  const init = await h.initialize({ fs: { readTextFile: true, writeTextFile: true } });
  assert.equal(init.protocolVersion, 1);
  assert.equal(init.agentInfo?.name, "companion");
  assert.ok(init.agentInfo.version, "agentInfo.version is set");
  const caps = init.agentCapabilities;
  assert.ok(caps, "agentCapabilities present");
  assert.ok(!caps.loadSession, `loadSession must be false or absent (no session/load), got ${caps.loadSession}`);
  assert.equal(typeof caps.promptCapabilities, "object", "promptCapabilities present");
  for (const k of ["image", "audio", "embeddedContext"]) {
    assert.equal(typeof (caps.promptCapabilities[k] ?? false), "boolean", `promptCapabilities.${k}`);
  }
  assert.ok(caps.sessionCapabilities?.close, "sessionCapabilities.close present");
  assert.ok(caps.sessionCapabilities?.additionalDirectories, "sessionCapabilities.additionalDirectories present");
  assert.ok(Array.isArray(init.authMethods), "authMethods is a list");

  // Truthfulness: session/close really works when advertised ...
  const s = await h.newSession();
  await h.request(acp.methods.agent.session.close, { sessionId: s.sessionId });
  // ... and session/load is refused when not advertised.
  const err = await rpcError(
    h.agent.request(acp.methods.agent.session.load, { sessionId: s.sessionId, cwd: h.workspace, mcpServers: [] }),
    "session/load",
  );
  assert.equal(err.code, -32601, `session/load without loadSession: ${err.code} ${err.message}`);
  await h.close();
});

test("a newer protocol version is answered with version 1", { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const h = await start(t);
  const init = await h.request(acp.methods.agent.initialize, { protocolVersion: 2, clientCapabilities: {} });
  assert.equal(init.protocolVersion, 1);
  await h.close();
});

test("prompt to an unknown session fails with -32002", { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const h = await start(t);
  await h.initialize();
  const err = await rpcError(h.prompt("sess_does_not_exist", "hello"), "prompt to unknown session");
  assert.equal(err.code, -32002, err.message);
  await h.close();
});

test("without an API key sessions and authenticate fail with -32000", { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const h = await start(t, { script: null }); // the real provider, and the env has no key
  const init = await h.initialize();
  const ids = (init.authMethods ?? []).map((m) => m.id);
  assert.ok(ids.includes("gemini-api-key"), `authMethods ${ids}`);
  const refused = await rpcError(h.newSession(), "session/new without a key");
  assert.equal(refused.code, -32000, refused.message);
  const auth = await rpcError(
    h.agent.request(acp.methods.agent.authenticate, { methodId: "gemini-api-key" }),
    "authenticate without a key",
  );
  assert.equal(auth.code, -32000, auth.message);
  await h.close();
});
