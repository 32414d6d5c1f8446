import assert from "node:assert/strict";
import { test } from "node:test";
import { commandEnd, lineDiff, money, relativePath, tokens, usageFraction, usageText, when } from "./load.mjs";

test("tokens and money print compactly", () => {
  assert.deepEqual([0, 950, 1000, 1300, 12_345, 200_000, 1_048_576].map(tokens), ["0", "950", "1k", "1.3k", "12.3k", "200k", "1.05M"]);
  assert.equal(money(0.0123, "USD"), "$0.0123");
  assert.equal(money(1.5, "usd"), "$1.50");
  assert.equal(money(3.5, "credits"), "3.5 credits");
});

test("usage text and fraction", () => {
  assert.equal(usageText({ used: 1300, size: 200_000 }), "1.3k / 200k tokens");
  assert.equal(usageText({ used: 10, size: 100, cost: { amount: 2, currency: "USD" } }), "10 / 100 tokens · $2.00");
  assert.equal(usageFraction({ used: 50, size: 100 }), 0.5);
  assert.equal(usageFraction({ used: 500, size: 100 }), 1);
  assert.equal(usageFraction({ used: 5, size: 0 }), 0);
});

const ops = (lines) => lines.map((l) => `${{ add: "+", del: "-", ctx: " ", gap: "~" }[l.op]}${l.text}`);

test("lineDiff shows changes with two lines of context and folds the rest", () => {
  const old = ["a", "b", "c", "d", "e", "f", "g", "h"].join("\n") + "\n";
  const now = ["a", "b", "c", "d", "E", "f", "g", "h"].join("\n") + "\n";
  assert.deepEqual(ops(lineDiff(old, now)), ["~2 unchanged lines", " c", " d", "-e", "+E", " f", " g", "~1 unchanged line"]);
});

test("lineDiff handles new files, deletions and insertions", () => {
  assert.deepEqual(ops(lineDiff(null, "x\ny\n")), ["+x", "+y"]);
  assert.deepEqual(ops(lineDiff("x\ny\n", "")), ["-x", "-y"]);
  assert.deepEqual(ops(lineDiff("a\nc\n", "a\nb\nc\n")), [" a", "+b", " c"]);
  assert.deepEqual(ops(lineDiff("same\n", "same\n")), []);
});

test("lineDiff falls back to remove-all/add-all on huge changes", () => {
  const a = Array.from({ length: 2500 }, (_, i) => `a${i}`).join("\n");
  const b = Array.from({ length: 2500 }, (_, i) => `b${i}`).join("\n");
  const d = lineDiff(a, b);
  assert.equal(d.filter((l) => l.op === "del").length, 2500);
  assert.equal(d.filter((l) => l.op === "add").length, 2500);
});

test("relativePath and when", () => {
  assert.equal(relativePath("/w/src/a.go", "/w"), "src/a.go");
  assert.equal(relativePath("/other/a.go", "/w"), "/other/a.go");
  assert.equal(when(null), "");
  assert.equal(when("not a date"), "");
  assert.notEqual(when("2026-11-22T07:39:17Z"), "");
});

test("splitFences shows a user message's fenced code as code", async () => {
  const { splitFences } = await import("./load.mjs");
  assert.deepEqual(splitFences("plain words"), [{ kind: "text", text: "plain words" }]);
  assert.deepEqual(splitFences("look:\n```js\nconst a = 1;\n```\nthanks"), [
    { kind: "text", text: "look:" },
    { kind: "code", text: "const a = 1;", lang: "js" },
    { kind: "text", text: "thanks" },
  ]);
  assert.deepEqual(splitFences("~~~\nx\n  y\n~~~"), [{ kind: "code", text: "x\n  y", lang: "" }]);
  assert.deepEqual(splitFences("```py\nunclosed"), [{ kind: "code", text: "unclosed", lang: "py" }]);
  assert.deepEqual(splitFences("inline ```not a fence``` here"), [{ kind: "text", text: "inline ```not a fence``` here" }]);
});

test("codeSpans turns backticked parts of an option name into code, leaving no raw backticks", async () => {
  const { codeSpans } = await import("./load.mjs");
  assert.deepEqual(codeSpans("Allow this time"), [{ text: "Allow this time", code: false }]);
  assert.deepEqual(codeSpans("Always allow `echo` this session"), [
    { text: "Always allow ", code: false },
    { text: "echo", code: true },
    { text: " this session", code: false },
  ]);
  assert.deepEqual(codeSpans("odd ` tick"), [{ text: "odd  tick", code: false }]);
  const shown = codeSpans("Allow ``a`b`` and `c`").map((p) => p.text).join("");
  assert.doesNotMatch(shown, /`{2}|^`|`$/);
});

test("commandEnd reads how a command ended from its output text", () => {
  for (const [text, want] of [
    ["hi\n---\nExit code: 0\n", "exit code 0"],
    ["(no output)\n---\nExit code: 127\n", "exit code 127"],
    ["x\n---\nThe command was killed by signal SIGKILL.\n", "killed by signal SIGKILL"],
    ["x\n---\nThe command was killed: it printed nothing for 5m0s.\n", "killed: it printed nothing for 5m0s"],
    ["Started background process bg_1 in the editor's terminal t1.", null],
    ["the word Exit code: 3 inside a line", null],
  ]) assert.equal(commandEnd(text), want, JSON.stringify(text));
});
