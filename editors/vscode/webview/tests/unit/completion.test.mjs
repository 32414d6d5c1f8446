import assert from "node:assert/strict";
import { test } from "node:test";
import { filterCommands, findTrigger, moveSelection, replaceToken } from "./load.mjs";

const cmds = [
  { name: "help", description: "Show help" },
  { name: "compress", description: "Summarize the conversation" },
  { name: "clear", description: "Forget this conversation" },
  { name: "memory", description: "Show what companion remembers" },
];

test("findTrigger finds slash commands only at the start, mentions after whitespace", () => {
  const cases = [
    ["/", 1, { mode: "slash", query: "", start: 0, end: 1 }],
    ["/co", 3, { mode: "slash", query: "co", start: 0, end: 3 }],
    ["/com more", 2, { mode: "slash", query: "c", start: 0, end: 4 }],
    ["/help ", 6, null],
    ["say /x", 6, null],
    ["@", 1, { mode: "mention", query: "", start: 0, end: 1 }],
    ["see @src/ma", 11, { mode: "mention", query: "src/ma", start: 4, end: 11 }],
    ["mail@host", 9, null],
    ["a @b c", 6, null],
    ["", 0, null],
  ];
  for (const [text, cursor, want] of cases) assert.deepEqual(findTrigger(text, cursor), want, `${JSON.stringify(text)} @${cursor}`);
});

test("filterCommands ranks name prefixes, then name substrings, then descriptions", () => {
  assert.deepEqual(filterCommands(cmds, "").map((c) => c.name), ["help", "compress", "clear", "memory"]);
  assert.deepEqual(filterCommands(cmds, "c").map((c) => c.name), ["compress", "clear"]);
  assert.deepEqual(filterCommands(cmds, "EM").map((c) => c.name), ["memory"]);
  assert.deepEqual(filterCommands(cmds, "conversation").map((c) => c.name), ["compress", "clear"]);
  assert.deepEqual(filterCommands(cmds, "zzz"), []);
  assert.deepEqual(filterCommands(cmds, "sh").map((c) => c.name), [], "short queries do not match descriptions");
  assert.deepEqual(filterCommands(cmds, "sho").map((c) => c.name), ["help", "memory"]);
});

test("replaceToken swaps the token and leaves one space after it", () => {
  assert.deepEqual(replaceToken("/co", findTrigger("/co", 3), "/compress"), { text: "/compress ", cursor: 10 });
  const t = findTrigger("see @ma now", 7);
  assert.deepEqual(replaceToken("see @ma now", t, "@main.go"), { text: "see @main.go now", cursor: 13 });
});

test("moveSelection wraps around", () => {
  assert.equal(moveSelection(0, -1, 3), 2);
  assert.equal(moveSelection(2, 1, 3), 0);
  assert.equal(moveSelection(0, 1, 0), 0);
});
