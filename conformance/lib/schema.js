// Validation of captured JSON-RPC messages against the repo's pinned ACP schema
// (../acp/schema/schema.json). The schema's $defs carry x-method (the method a
// def belongs to) and x-side (who handles the method); together with the
// request ids seen so far they say which def each message must satisfy.

import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

export const SCHEMA_PATH = fileURLToPath(new URL("../../acp/schema/schema.json", import.meta.url));
const SCHEMA_ID = "https://companion.invalid/acp/schema.json";

const int = (lo, hi) => ({
  type: "number",
  validate: (n) => Number.isInteger(n) && n >= lo && n <= hi,
});

/** Compiles the pinned schema once per process. */
function compile() {
  const schema = JSON.parse(readFileSync(SCHEMA_PATH, "utf8"));
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false, strictTuples: false });
  addFormats(ajv, ["uri"]);
  ajv.addFormat("int32", int(-(2 ** 31), 2 ** 31 - 1));
  ajv.addFormat("uint16", int(0, 65535));
  ajv.addFormat("uint32", int(0, 2 ** 32 - 1));
  ajv.addFormat("int64", int(Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER));
  ajv.addFormat("uint64", int(0, Number.MAX_SAFE_INTEGER));
  ajv.addFormat("double", { type: "number", validate: (n) => Number.isFinite(n) });
  // Annotation-only keywords used by the ACP schema generator: its x-* hints
  // and OpenAPI's "discriminator" (which JSON Schema does not define, so it
  // has no effect on validation there either).
  const xKeys = new Set(["discriminator"]);
  JSON.stringify(schema, (k, v) => {
    if (k.startsWith("x-")) xKeys.add(k);
    return v;
  });
  ajv.addVocabulary([...xKeys]);
  ajv.addSchema({ ...schema, $id: SCHEMA_ID });

  const defs = schema.$defs;
  const byMethod = { request: new Map(), response: new Map(), notification: new Map() };
  for (const [name, def] of Object.entries(defs)) {
    const method = def["x-method"];
    if (!method) continue;
    const kind = name.endsWith("Request")
      ? "request"
      : name.endsWith("Response")
        ? "response"
        : name.endsWith("Notification")
          ? "notification"
          : null;
    if (!kind) throw new Error(`schema def ${name} has x-method but no Request/Response/Notification suffix`);
    byMethod[kind].set(method, { name, side: def["x-side"] });
  }
  const validator = (name) => {
    const v = ajv.getSchema(`${SCHEMA_ID}#/$defs/${name}`);
    if (!v) throw new Error(`schema has no $defs/${name}`);
    return v;
  };
  return { root: ajv.getSchema(SCHEMA_ID), byMethod, validator };
}

let compiled;
function schema() {
  compiled ??= compile();
  return compiled;
}

/** Methods the pinned schema defines, by kind, for reporting. */
export function schemaMethods() {
  const { byMethod } = schema();
  return Object.fromEntries(Object.entries(byMethod).map(([k, m]) => [k, [...m.keys()]]));
}

/**
 * MessageChecker validates one connection's traffic. Directions are "c2a"
 * (client to agent) and "a2c" (agent to client). check returns a list of
 * problems (empty when the message is valid).
 */
export class MessageChecker {
  // Requests each side sent and has not yet seen answered: id -> method.
  #pending = { c2a: new Map(), a2c: new Map() };

  check(dir, msg) {
    const { root, byMethod, validator } = schema();
    const problems = [];
    const run = (label, validate, value) => {
      if (!validate(value)) problems.push({ against: label, errors: validate.errors });
    };
    if (msg === null || typeof msg !== "object" || Array.isArray(msg)) {
      return [{ against: "JSON-RPC", errors: "message is not a JSON object" }];
    }
    if (msg.jsonrpc !== "2.0") problems.push({ against: "JSON-RPC", errors: 'jsonrpc is not "2.0"' });
    run("root schema", root, msg);

    const other = dir === "c2a" ? "a2c" : "c2a";
    const handler = dir === "c2a" ? "agent" : "client";
    if (typeof msg.method === "string") {
      const isRequest = "id" in msg;
      const kind = isRequest ? "request" : "notification";
      const def = byMethod[kind].get(msg.method);
      if (isRequest) this.#pending[dir].set(JSON.stringify(msg.id), msg.method);
      if (!def) {
        if (!msg.method.startsWith("_")) {
          problems.push({ against: `${kind} ${msg.method}`, errors: "method not in the pinned schema" });
        }
        return problems;
      }
      if (def.side !== "protocol" && def.side !== handler) {
        problems.push({
          against: `${def.name} x-side`,
          errors: `${msg.method} is handled by the ${def.side} but was sent to the ${handler}`,
        });
      }
      run(`$defs/${def.name}`, validator(def.name), msg.params ?? null);
      return problems;
    }
    if (!("id" in msg)) {
      problems.push({ against: "JSON-RPC", errors: "neither a request, a notification nor a response" });
      return problems;
    }
    const key = JSON.stringify(msg.id);
    const method = this.#pending[other].get(key);
    if (method === undefined) {
      problems.push({ against: "JSON-RPC", errors: `response id ${key} answers no pending request` });
      return problems;
    }
    this.#pending[other].delete(key);
    const hasResult = "result" in msg;
    const hasError = "error" in msg;
    if (hasResult === hasError) {
      problems.push({ against: "JSON-RPC", errors: "a response needs exactly one of result and error" });
    } else if (hasError) {
      run("$defs/Error", validator("Error"), msg.error);
    } else {
      const def = byMethod.response.get(method);
      if (def) run(`$defs/${def.name} (answer to ${method})`, validator(def.name), msg.result);
      else if (!method.startsWith("_")) {
        problems.push({ against: `response to ${method}`, errors: "method not in the pinned schema" });
      }
    }
    return problems;
  }

  /** Requests still unanswered in a direction, as [id, method] pairs. */
  pending(dir) {
    return [...this.#pending[dir].entries()];
  }
}
