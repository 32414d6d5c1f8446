// Markdown to HTML for agent messages and thoughts (marked + highlight.js).
// Raw HTML in the markdown is escaped; the DOM side still sanitizes the
// result (sanitize.ts) against markdown-made links such as javascript:.
// Pure, so it is unit-tested under node.

import { Marked, type Tokens } from "marked";
import { escapeHtml, highlight } from "./highlight";

const marked = new Marked({
  gfm: true,
  breaks: false,
  renderer: {
    code(token: Tokens.Code): string {
      const lang = (token.lang ?? "").trim().split(/\s+/)[0] ?? "";
      const cls = lang ? ` class="hljs language-${escapeHtml(lang)}"` : ` class="hljs"`;
      const label = lang ? `<span class="code-lang">${escapeHtml(lang)}</span>` : "";
      return `<pre class="code-block">${label}<code${cls}>${highlight(token.text, lang)}</code></pre>\n`;
    },
    // Raw HTML from the agent is shown as text, never parsed: even an inert
    // parse of a style="" attribute is a CSP violation in the webview.
    html(token: Tokens.HTML | Tokens.Tag): string {
      return escapeHtml(token.text);
    },
  },
});

/** renderMarkdown turns markdown into (unsanitized) HTML. */
export function renderMarkdown(text: string): string {
  return marked.parse(streamingSource(text), { async: false });
}

/**
 * streamingSource drops a trailing line that is only the start of a code
 * fence ("`" or "``"): a chunk boundary inside "```" would otherwise flash
 * an inline-code artifact until the next chunk completes the fence.
 */
export function streamingSource(text: string): string {
  const nl = text.lastIndexOf("\n");
  const last = text.slice(nl + 1);
  if (/^ {0,3}`{1,2}$/.test(last)) return text.slice(0, nl + 1);
  return text;
}
