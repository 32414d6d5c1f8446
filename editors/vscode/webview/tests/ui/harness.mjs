// Serves tests/ui/harness.html (with the extension's CSP, as a header and
// a meta tag) and the built media/ from 127.0.0.1, and opens it in Debian's
// headless Chromium through playwright-core.

import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { launchOptions } from "../../../scripts/browser.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
/** EXT_DIR is editors/vscode: /media and /webview are served from it. */
const EXT_DIR = path.resolve(here, "..", "..", "..");
const TYPES = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".json": "application/json", ".ttf": "font/ttf" };

/** fixture loads the recorded session. */
export async function fixture() {
  return JSON.parse(await readFile(path.join(here, "..", "fixtures", "session.json"), "utf8"));
}

/** startServer serves the harness; returns {url, close}. */
export async function startServer() {
  const nonce = randomBytes(16).toString("base64");
  const server = http.createServer((req, res) => serve(req, res, nonce, server));
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${server.address().port}`;
  return { url: `${origin}/harness`, origin, close: () => new Promise((r) => server.close(r)) };
}

async function serve(req, res, nonce, server) {
  const origin = `http://127.0.0.1:${server.address().port}`;
  const csp = `default-src 'none'; script-src 'nonce-${nonce}'; style-src ${origin}; img-src ${origin} data:; font-src ${origin};`;
  const url = new URL(req.url, origin);
  try {
    if (url.pathname === "/favicon.ico") return res.writeHead(204).end(); // Chromium asks for it on its own
    if (url.pathname === "/harness") {
      const html = (await readFile(path.join(here, "harness.html"), "utf8")).replaceAll("{{NONCE}}", nonce).replaceAll("{{CSP_SOURCE}}", origin);
      res.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-security-policy": csp, "cache-control": "no-store" });
      return res.end(html);
    }
    const file = path.resolve(EXT_DIR, `.${decodeURIComponent(url.pathname)}`);
    const allowed = [path.join(EXT_DIR, "media"), path.join(EXT_DIR, "webview", "tests", "ui")];
    if (!allowed.some((dir) => file.startsWith(dir + path.sep))) throw Object.assign(new Error("not served"), { code: "ENOENT" });
    const body = await readFile(file);
    res.writeHead(200, { "content-type": TYPES[path.extname(file)] ?? "application/octet-stream", "cache-control": "no-store" });
    res.end(body);
  } catch (err) {
    res.writeHead(err.code === "ENOENT" ? 404 : 500);
    res.end(String(err.message));
  }
}

/** launch starts headless Chromium. */
export function launch() {
  return chromium.launch(launchOptions());
}

/**
 * open loads the harness in a new page and collects console errors and CSP
 * reports; page.problems() returns them.
 */
export async function open(browser, url, viewport = { width: 420, height: 900 }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const problems = [];
  page.on("console", (m) => {
    if (m.type() === "error" || /Content Security Policy/i.test(m.text())) problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  await page.goto(url);
  await page.waitForSelector("#root #messages");
  page.problems = async () => [...problems, ...(await page.evaluate(() => window.__cspViolations)).map((v) => `CSP: ${v}`)];
  return page;
}

/** deliver plays extension messages into the page and waits for the next rendered frame. */
export function deliver(page, msgs) {
  return page.evaluate((m) => {
    window.__deliver(m);
    return new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  }, msgs);
}

/** posted returns what the UI posted so far. */
export function posted(page) {
  // Timing marks are diagnostics, not part of the conversation.
  return page.evaluate(() => window.__posted.filter((m) => m.type !== "timing"));
}

/** waitPosted waits until the UI posted a message matching pred (a function source over m). */
export async function waitPosted(page, type, match = {}) {
  const handle = await page.waitForFunction(
    ([t, want]) => window.__posted.find((m) => m.type === t && Object.entries(want).every(([k, v]) => JSON.stringify(m[k]) === JSON.stringify(v))),
    [type, match],
    { timeout: 5000 },
  );
  return handle.jsonValue();
}
