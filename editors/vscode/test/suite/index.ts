// Entry of the mocha suite that runs inside the real extension host
// (extensionTestsPath = out/test/suite/index.js). See TESTING.md and
// e2e/test/1-harness.test.mjs for how it is launched in code-server.

import * as path from "node:path";
import Mocha from "mocha";

/** run is what the extension host calls; it rejects when a test fails. */
export function run(): Promise<void> {
  const mocha = new Mocha({ ui: "bdd", timeout: 60_000, color: false });
  mocha.addFile(path.join(__dirname, "extension.test.js"));
  return new Promise((resolve, reject) => {
    mocha.run((failures) => (failures > 0 ? reject(new Error(`${failures} extension test(s) failed`)) : resolve()));
  });
}
