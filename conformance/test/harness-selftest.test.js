// Self-test of the harness against a faulty fake agent: a schema-invalid
// message and a non-zero exit must each fail close().
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { test } from "node:test";
import { TEST_TIMEOUT_MS, start } from "../lib/harness.js";

const fake = [process.execPath, fileURLToPath(new URL("../lib/fixtures/fake-agent.js", import.meta.url))];

test("harness fails a test on a schema-invalid agent message", { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const h = await start(t, { command: fake, script: { fake: "bad-update" } });
  await h.initialize();
  await h.newSession();
  await h.waitMessage("a2c", (m) => m.method === "session/update", "the bad update");
  await assert.rejects(h.close(), (err) => {
    assert.match(err.message, /1 message\(s\) do not match the pinned ACP schema/);
    assert.match(err.message, /"text":42/);
    assert.match(err.message, /SessionNotification/);
    return true;
  });
});

test("harness fails a test when the agent exits non-zero", { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const h = await start(t, { command: fake, script: { fake: "exit-3" } });
  await h.initialize();
  await assert.rejects(h.close(), /exited with code 3/);
});
