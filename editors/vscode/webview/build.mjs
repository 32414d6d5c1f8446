// Builds the webview bundle into ../media (webview.js, webview.css) and the
// DOM-free modules into out/pure.mjs for the node unit tests.
//
//   node build.mjs            production build (minified)
//   node build.mjs --dev      with inline source maps, not minified

import { build } from "esbuild";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const dev = process.argv.includes("--dev");
const media = path.join(here, "..", "media");

await Promise.all([
  build({
    entryPoints: [path.join(here, "src", "main.ts")],
    outfile: path.join(media, "webview.js"),
    bundle: true,
    format: "iife",
    platform: "browser",
    target: "es2022",
    minify: !dev,
    sourcemap: dev ? "inline" : false,
    legalComments: "none",
    logLevel: "warning",
  }),
  build({
    entryPoints: [path.join(here, "src", "webview.css")],
    outfile: path.join(media, "webview.css"),
    bundle: true,
    loader: { ".ttf": "file" },
    assetNames: "[name]", // media/codicon.ttf
    minify: !dev,
    logLevel: "warning",
  }),
  build({
    entryPoints: [path.join(here, "src", "pure.ts")],
    outfile: path.join(here, "out", "pure.mjs"),
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    logLevel: "warning",
  }),
]);
