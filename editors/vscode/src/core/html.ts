// The chat webview's HTML: a strict Content-Security-Policy (no inline code,
// scripts only with this load's nonce, styles / images / fonts only from the
// extension), the bundle built by webview/ and the root element it renders into.

import { randomBytes } from "node:crypto";

/** What the page needs from the webview. */
export interface HtmlInputs {
  /** webview.cspSource */
  cspSource: string;
  /** asWebviewUri(media/webview.js) */
  scriptUri: string;
  /** asWebviewUri(media/webview.css) */
  styleUri: string;
  /** Defaults to a fresh random nonce. */
  nonce?: string;
}

/** newNonce returns a random base64 nonce for a script-src. */
export function newNonce(): string {
  return randomBytes(18).toString("base64");
}

/**
 * BOOT_SHELL is the prompt box as plain HTML, shown as soon as the page and
 * its stylesheet are parsed: the user can type before the script has loaded
 * (it takes the text over when it builds the real view).
 */
const BOOT_SHELL =
  '<div class="messages" aria-busy="true"></div><div class="composer"><textarea id="prompt" rows="3" ' +
  'placeholder="Ask companion… (/ for commands, @ for files)" aria-label="Prompt"></textarea></div>';

/** webviewHtml renders the page. */
export function webviewHtml(i: HtmlInputs): string {
  const nonce = i.nonce ?? newNonce();
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${i.cspSource}`,
    `img-src ${i.cspSource} data:`,
    `font-src ${i.cspSource}`,
  ].join("; ");
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeAttr(i.styleUri)}">
<title>Companion</title>
</head>
<body>
<div id="root">${BOOT_SHELL}</div>
<script nonce="${nonce}" src="${escapeAttr(i.scriptUri)}"></script>
</body>
</html>`;
}

function escapeAttr(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
}
