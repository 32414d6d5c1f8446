import assert from "node:assert/strict";
import { test } from "node:test";
import { linkLocation, renderMarkdown, streamingSource } from "./load.mjs";

test("code blocks are highlighted for known languages and escaped otherwise", () => {
  const html = renderMarkdown("```go\nfunc main() {}\n```\n");
  assert.match(html, /<code class="hljs language-go">.*<span class="hljs-keyword">func<\/span>/);
  const unknown = renderMarkdown("```nosuchlang\n<b>x</b>\n```\n");
  assert.match(unknown, /&#60;b&#62;x&#60;\/b&#62;/);
  assert.doesNotMatch(unknown, /<b>/);
});

test("an unterminated fence renders as code while streaming", () => {
  const html = renderMarkdown("Here:\n```py\nprint(1)\n");
  assert.match(html, /language-py/);
  assert.match(html, /<span class="hljs-built_in">print<\/span>/);
});

test("streamingSource hides a half-typed fence at the end only", () => {
  assert.equal(streamingSource("text\n``"), "text\n");
  assert.equal(streamingSource("text\n`"), "text\n");
  assert.equal(streamingSource("text\n```"), "text\n```");
  assert.equal(streamingSource("use `x`"), "use `x`");
});

test("chunks joined at any boundary render like the whole text", () => {
  const whole = "Done. `main` now prints:\n\n```go\nfunc main() {\n\tfmt.Println(\"hello\")\n}\n```\n\n- one\n- two\n";
  const final = renderMarkdown(whole);
  for (let cut = 1; cut < whole.length; cut += 7) {
    let acc = "";
    for (const part of [whole.slice(0, cut), whole.slice(cut)]) {
      acc += part;
      renderMarkdown(acc); // every intermediate state renders without throwing
    }
    assert.equal(renderMarkdown(acc), final);
  }
});

test("linkLocation maps workspace links to openLocation targets", () => {
  assert.deepEqual(linkLocation("src/a.go#L12", "/w"), { path: "/w/src/a.go", line: 12 });
  assert.deepEqual(linkLocation("./a.go:3", "/w/"), { path: "/w/a.go", line: 3 });
  assert.deepEqual(linkLocation("file:///w/b%20c.ts", "/w"), { path: "/w/b c.ts", line: null });
  assert.deepEqual(linkLocation("/abs/x.py", "/w"), { path: "/abs/x.py", line: null });
  assert.equal(linkLocation("https://example.com/a", "/w"), null);
  assert.equal(linkLocation("#top", "/w"), null);
  assert.equal(linkLocation("javascript:alert(1)", "/w"), null);
});

test("raw HTML from the agent is shown as text", () => {
  const html = renderMarkdown('a <span style="color:red">b</span>\n\n<div onclick="x()">c</div>\n');
  assert.doesNotMatch(html, /<span|<div/);
  assert.match(html, /&#60;span style=&#34;color:red&#34;&#62;b&#60;\/span&#62;/);
});
