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
  assert.equal(caps.loadSession, true, "loadSession advertised");
  for (const k of ["list", "delete", "resume", "close"]) {
    assert.ok(caps.sessionCapabilities?.[k], `sessionCapabilities.${k} present`);
  }
  assert.equal(typeof caps.promptCapabilities, "object", "promptCapabilities present");
  for (const k of ["image", "audio", "embeddedContext"]) {
    assert.equal(typeof (caps.promptCapabilities[k] ?? false), "boolean", `promptCapabilities.${k}`);
  }
  assert.ok(caps.sessionCapabilities?.close, "sessionCapabilities.close present");
  assert.ok(caps.sessionCapabilities?.additionalDirectories, "sessionCapabilities.additionalDirectories present");
  assert.ok(Array.isArray(init.authMethods), "authMethods is a list");

  // Truthfulness: every advertised session method really works. A session
  // is listed once it has been prompted; one opened and never used is not.
  const s = await h.newSession();
  const unused = await h.newSession();
  await h.prompt(s.sessionId, "hello");
  await h.request(acp.methods.agent.session.close, { sessionId: s.sessionId });
  const loaded = await h.request(acp.methods.agent.session.load, { sessionId: s.sessionId, cwd: h.workspace, mcpServers: [] });
  assert.equal(loaded.modes?.currentModeId, "default", "session/load answers the session's modes");
  const listed = await h.request(acp.methods.agent.session.list, { cwd: h.workspace });
  assert.ok(listed.sessions.some((x) => x.sessionId === s.sessionId), "session/list shows the session");
  assert.ok(!listed.sessions.some((x) => x.sessionId === unused.sessionId), "session/list leaves out a session never prompted");
  await h.request(acp.methods.agent.session.resume, { sessionId: s.sessionId, cwd: h.workspace });
  await h.request(acp.methods.agent.session.delete, { sessionId: s.sessionId });
  const err = await rpcError(
    h.agent.request(acp.methods.agent.session.load, { sessionId: s.sessionId, cwd: h.workspace, mcpServers: [] }),
    "session/load",
  );
  assert.equal(err.code, -32002, `session/load after delete: ${err.code} ${err.message}`);
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

test("logout is advertised; afterwards sessions need authenticate again", { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const h = await start(t);
  const init = await h.initialize();
  assert.ok(init.agentCapabilities.auth?.logout, "agentCapabilities.auth.logout advertised");
  const s = await h.newSession();
  await h.request(acp.methods.agent.logout, {});
  const refused = await rpcError(h.newSession(), "session/new after logout");
  assert.equal(refused.code, -32000, refused.message);
  const prompt = await rpcError(h.prompt(s.sessionId, "hello"), "prompt after logout");
  assert.equal(prompt.code, -32000, prompt.message);
  await h.request(acp.methods.agent.authenticate, { methodId: "gemini-api-key" });
  await h.newSession();
  await h.close();
});
