// The DOM-free modules, as built by `npm run build` (build.mjs → out/pure.mjs).
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));

export * from "../../out/pure.mjs";

/** fixture loads the recorded session. */
export async function fixture() {
  return JSON.parse(await readFile(path.join(here, "..", "fixtures", "session.json"), "utf8"));
}
