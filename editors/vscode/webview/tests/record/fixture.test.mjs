// The committed fixture must still be what the real binary does, in the
// terms the UI renders: this re-records the scripted session with
// $COMPANION_BIN and compares the resulting view models. When it fails after
// an intended agent change, re-record: `COMPANION_BIN=... npm run record`.

import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { test } from "node:test";
import { apply, emptyState, fixture } from "../unit/load.mjs";
import { record } from "./record.mjs";

/** summary is what the UI shows of a message stream, without ids, times and token counts. */
function summary(msgs) {
  const s = emptyState();
  for (const m of msgs) apply(s, m);
  return {
    items: s.items.map((it) => {
      switch (it.kind) {
        case "tool": return `tool ${it.call.kind} ${it.call.status} ${it.call.title} ${it.call.content.map((c) => c.type).join(",")} ${it.call.locations.length}`;
        case "permission": return `permission ${it.toolKind} ${it.options.map((o) => o.optionId).join(",")} ${it.answered?.optionId}`;
        default: return `${it.kind} ${it.text}`;
      }
    }),
    plan: s.plan,
    commands: s.commands.map((c) => c.name),
    config: s.configOptions.map((o) => `${o.id}:${o.category}:${o.currentValue}`),
    title: s.title,
    usage: !!s.usage,
  };
}

test("the committed fixture matches a fresh recording from $COMPANION_BIN", { timeout: 60_000 }, async () => {
  const bin = process.env.COMPANION_BIN;
  assert.ok(bin, "set COMPANION_BIN to the absolute path of the companion binary");
  assert.ok(existsSync(bin), `COMPANION_BIN=${bin} does not exist`);
  const [fresh, committed] = await Promise.all([record(), fixture()]);
  assert.equal(fresh.prompt, committed.prompt);
  assert.deepEqual(summary(fresh.live), summary(committed.live), "live turn differs: re-record the fixture");
  assert.deepEqual(summary(fresh.replay), summary(committed.replay), "session/load replay differs: re-record the fixture");
  assert.equal(fresh.sessions.sessions.length, 1);
});
