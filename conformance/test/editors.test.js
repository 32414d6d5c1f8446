// The editor setup files in editors/: the Zed extension manifest parses and
// matches the release layout, release.sh renders a publishable manifest, and
// the JSON snippets users copy from the READMEs are valid, down to the config
// option values they name.

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { TEST_TIMEOUT_MS, start } from "../lib/harness.js";

const run = promisify(execFile);
const editors = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../editors");
const manifestPath = path.join(editors, "zed/extension.toml");

// Zed's agent-server targets, and how our archives are named and entered.
const TARGETS = {
  "linux-x86_64": ["tar.gz", "./companion"],
  "linux-aarch64": ["tar.gz", "./companion"],
  "darwin-x86_64": ["tar.gz", "./companion"],
  "darwin-aarch64": ["tar.gz", "./companion"],
  "windows-x86_64": ["zip", "./companion.exe"],
};

/**
 * parseToml reads a TOML file with Python's tomllib (3.11+), the brief's
 * reference parser; it returns null when no such Python is installed.
 */
async function parseToml(file) {
  const code = "import json, sys, tomllib\nprint(json.dumps(tomllib.load(open(sys.argv[1], 'rb'))))";
  try {
    const { stdout } = await run("python3", ["-c", code, file]);
    return JSON.parse(stdout);
  } catch (err) {
    if (err.code === "ENOENT" || /No module named 'tomllib'/.test(err.stderr ?? "")) return null;
    throw new Error(`${file} is not valid TOML:\n${err.stderr ?? err.message}`);
  }
}

/** checkManifest asserts the manifest's shape for an owner and version. */
function checkManifest(m, owner, version) {
  for (const key of ["id", "name", "version", "description", "repository"]) {
    assert.equal(typeof m[key], "string", `top-level ${key}`);
  }
  assert.equal(m.schema_version, 1);
  assert.ok(Array.isArray(m.authors) && m.authors.length > 0, "authors");
  assert.equal(m.version, version);
  assert.equal(m.repository, `https://github.com/${owner}/companion`);
  const server = m.agent_servers?.companion;
  assert.equal(server?.name, "companion", "[agent_servers.companion] has a name");
  assert.deepEqual(Object.keys(server.targets).sort(), Object.keys(TARGETS).sort());
  for (const [target, [ext, cmd]] of Object.entries(TARGETS)) {
    const t = server.targets[target];
    assert.equal(t.archive, `https://github.com/${owner}/companion/releases/download/v${version}/companion-${target}.${ext}`);
    assert.equal(t.cmd, cmd, `${target} cmd`);
    assert.deepEqual(t.args, ["acp"], `${target} args`);
  }
  return server.targets;
}

test("the Zed extension manifest parses and points at the release layout (placeholders OWNER, 0.0.0)", async (t) => {
  const m = await parseToml(manifestPath);
  if (m === null) return t.skip("python3 with tomllib (3.11+) is not installed");
  const targets = checkManifest(m, "OWNER", "0.0.0");
  for (const [name, target] of Object.entries(targets)) {
    assert.equal(target.sha256, undefined, `${name}: no sha256 before a release exists`);
  }
});

test("release.sh --manifest-only writes the real manifest with sha256s", async (t) => {
  const dist = await mkdtemp(path.join(tmpdir(), "companion-dist-"));
  t.after(() => rm(dist, { recursive: true, force: true }));
  const sums = {};
  for (const [target, [ext]] of Object.entries(TARGETS)) {
    const body = `archive for ${target}\n`;
    await writeFile(path.join(dist, `companion-${target}.${ext}`), body);
    sums[target] = createHash("sha256").update(body).digest("hex");
  }
  await run("bash", [path.join(editors, "zed/release.sh"), "--manifest-only", "acme", "v1.2.3", dist]);
  const out = path.join(dist, "extension.toml");
  const text = await readFile(out, "utf8");
  assert.ok(!/OWNER|0\.0\.0/.test(text), "no placeholder is left");
  const m = await parseToml(out);
  if (m === null) return t.skip("python3 with tomllib (3.11+) is not installed");
  const targets = checkManifest(m, "acme", "1.2.3");
  for (const [target, sum] of Object.entries(sums)) assert.equal(targets[target].sha256, sum, `${target} sha256`);
});

test("release.sh refuses a manifest when an archive is missing", async (t) => {
  const dist = await mkdtemp(path.join(tmpdir(), "companion-dist-"));
  t.after(() => rm(dist, { recursive: true, force: true }));
  await assert.rejects(
    run("bash", [path.join(editors, "zed/release.sh"), "--manifest-only", "acme", "1.2.3", dist]),
    (err) => err.code === 2 && /missing archive/.test(err.stderr),
  );
  await assert.rejects(readFile(path.join(dist, "extension.toml")), { code: "ENOENT" }, "no half-written manifest");
});

/** jsonBlocks returns the ```json fenced blocks of a markdown file. */
async function jsonBlocks(file) {
  const md = await readFile(file, "utf8");
  return [...md.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1]);
}

test("the JSON snippets in the editor READMEs are valid and start `companion acp`", { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const seen = { zed: 0, other: 0 };
  const defaults = [];
  for (const [file, zed] of [[path.join(editors, "zed/README.md"), true], [path.join(editors, "README.md"), false]]) {
    for (const block of await jsonBlocks(file)) {
      let value;
      assert.doesNotThrow(() => (value = JSON.parse(block)), `${file}: invalid JSON:\n${block}`);
      for (const [name, entry] of Object.entries(value.agent_servers ?? {})) {
        assert.equal(name, "companion");
        assert.match(entry.command, /companion$/, `${file}: command`);
        assert.deepEqual(entry.args, ["acp"], `${file}: args`);
        if (zed) assert.equal(entry.type, "custom", `${file}: Zed's custom agents are tagged "type": "custom"`);
        defaults.push(...Object.entries(entry.default_config_options ?? {}));
        seen[zed ? "zed" : "other"]++;
      }
    }
  }
  assert.equal(seen.zed, 2, "editors/zed/README.md has the settings snippet and the one with defaults");
  assert.equal(seen.other, 1, "editors/README.md has the JetBrains acp.json snippet");

  // The documented default_config_options are options and values companion offers.
  assert.ok(defaults.length > 0, "a snippet shows default_config_options");
  const h = await start(t, { script: { turns: [], fallback: "error" } });
  await h.initialize();
  const { configOptions } = await h.newSession();
  for (const [id, value] of defaults) {
    const opt = configOptions.find((o) => o.id === id);
    assert.ok(opt, `config option ${id} exists`);
    assert.ok(opt.options.some((o) => o.value === value), `${id} offers ${value}: ${JSON.stringify(opt.options)}`);
  }
  await h.close();
});
