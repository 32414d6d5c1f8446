// Builds the extension host bundles (out/extension.js, out/wiring.js) and the extension-host
// mocha suite (out/test/suite/*.js). The webview bundle is built by webview/.
//   node esbuild.mjs            production build (minified, no sourcemap)
//   node esbuild.mjs --dev      with sourcemaps, not minified

import { build } from "esbuild";
import { readdirSync, rmSync } from "node:fs";

const dev = process.argv.includes("--dev");
rmSync("out", { recursive: true, force: true });
const common = {
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  external: ["vscode"],
  logLevel: "warning",
  sourcemap: dev,
};

// Two bundles: the light entry point (out/extension.js), which registers the
// view and commands, and the rest (out/wiring.js: the controller, the ACP
// library), which it loads right after activation.
await build({
  ...common,
  entryPoints: ["src/vscode/extension.ts"],
  outfile: "out/extension.js",
  external: ["vscode", "./wiring.js"],
  minify: !dev,
});
await build({
  ...common,
  entryPoints: ["src/vscode/wiring.ts"],
  outfile: "out/wiring.js",
  minify: !dev,
});

// The suite runs inside the extension host from the development folder, so
// mocha is loaded from node_modules at run time rather than bundled.
const suite = readdirSync("test/suite").filter((f) => f.endsWith(".ts"));
await build({
  ...common,
  entryPoints: suite.map((f) => `test/suite/${f}`),
  outdir: "out/test/suite",
  external: ["vscode", "mocha"],
});
