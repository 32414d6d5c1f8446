// The built companion extension and a code-server set up to run it against
// the real companion binary on a scripted model.

import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { startCodeServer } from "./codeServer.mjs";
import { EXTENSION_DIR, companionBin } from "./env.mjs";

/**
 * builtExtension says how to install the extension under test: the .vsix
 * named by COMPANION_E2E_VSIX (what ci.sh packages, the real install path),
 * else the built folder editors/vscode copied in. Throws when nothing is built.
 */
export function builtExtension() {
  const vsix = process.env.COMPANION_E2E_VSIX;
  if (vsix) {
    if (!existsSync(vsix)) throw new Error(`COMPANION_E2E_VSIX=${vsix} does not exist`);
    return { vsix: [vsix] };
  }
  for (const file of ["out/extension.js", "media/webview.js"]) {
    if (!existsSync(path.join(EXTENSION_DIR, file))) {
      throw new Error(`${file} is missing in ${EXTENSION_DIR}: build the extension first (e2e/ci.sh does)`);
    }
  }
  return { extensions: [EXTENSION_DIR] };
}

/**
 * startCompanionServer starts code-server with the extension installed and
 * configured to run $COMPANION_BIN on the scripted model script. The agent
 * gets a HOME of its own, so no user settings or sessions leak in or out.
 * files: workspace files to create (name → text); settings: more settings
 * (or overrides, e.g. a wrong companion.path); workspaceTrust: VS Code's
 * workspace trust on, so the folder opens untrusted. Returns { server, workspace,
 * settings, cleanup }.
 */
export async function startCompanionServer({ script, files = {}, settings: extra = {}, workspaceTrust = false }) {
  const bin = companionBin();
  const root = await mkdtemp(path.join(os.tmpdir(), "companion-e2e-"));
  const workspace = path.join(root, "ws");
  const home = path.join(root, "home");
  await mkdir(workspace);
  await mkdir(home);
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(workspace, name)), { recursive: true });
    await writeFile(path.join(workspace, name), text);
  }
  const settings = {
    "companion.path": bin,
    "companion.args": ["--script", script],
    // The DOM renderer keeps terminal text in the DOM, where tests read it.
    "terminal.integrated.gpuAcceleration": "off",
    ...extra,
    // Extra variables join the agent's own HOME, never replace it.
    "companion.env": { HOME: home, XDG_CONFIG_HOME: path.join(home, ".config"), ...extra["companion.env"] },
  };
  let server;
  try {
    server = await startCodeServer({ workspace, settings, workspaceTrust, ...builtExtension() });
  } catch (err) {
    await rm(root, { recursive: true, force: true });
    throw err;
  }
  const cleanup = async () => {
    await server.stop();
    if (!process.env.COMPANION_E2E_KEEP) await rm(root, { recursive: true, force: true });
  };
  return { server, workspace, settings, cleanup };
}
