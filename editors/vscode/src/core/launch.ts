// How the extension starts `companion acp`: which binary, which arguments,
// which environment. Pure, so the rules are unit-tested.

import type { LaunchSpec } from "./connection";

/** The settings and facts the launch depends on. */
export interface LaunchInputs {
  /** companion.path ("" when unset). */
  path: string;
  /** companion.args: extra arguments appended after `acp`. */
  args: string[];
  /** companion.env: extra environment variables (they win over everything). */
  env: Record<string, string>;
  /** companion.model ("" when unset). */
  model: string;
  /** The binary shipped in the extension (bin/companion), when it exists. */
  shippedBinary?: string;
  /** The API key from SecretStorage, if stored. */
  apiKey?: string;
  /** The extension host's environment. */
  baseEnv: NodeJS.ProcessEnv;
  cwd: string;
  /** COMPANION_LOG_LEVEL for the agent (the trace turns it to debug); the environment and companion.env win. */
  logLevel?: string;
}

/** composeLaunch applies the rules: setting, else shipped binary, else PATH; args after `acp`; key by provider. */
export function composeLaunch(i: LaunchInputs): LaunchSpec {
  const command = i.path.trim() || i.shippedBinary || "companion";
  const args = ["acp"];
  if (i.model.trim()) args.push("--model", i.model.trim());
  args.push(...i.args);
  const env: NodeJS.ProcessEnv = { ...i.baseEnv };
  if (i.logLevel && !env.COMPANION_LOG_LEVEL) env.COMPANION_LOG_LEVEL = i.logLevel;
  if (i.apiKey) env[keyVariable(i.args, { ...i.baseEnv, ...i.env })] = i.apiKey;
  Object.assign(env, i.env);
  return { command, args, env, cwd: i.cwd };
}

/**
 * keyVariable names the variable the stored key goes in: OPENAI_API_KEY when
 * the provider is openai (`--provider openai` in the args, or
 * COMPANION_PROVIDER=openai), else GEMINI_API_KEY.
 */
export function keyVariable(args: string[], env: NodeJS.ProcessEnv): "OPENAI_API_KEY" | "GEMINI_API_KEY" {
  let provider = env.COMPANION_PROVIDER ?? "";
  args.forEach((a, i) => {
    if (a === "--provider" || a === "-provider") provider = args[i + 1] ?? provider;
    else if (a.startsWith("--provider=") || a.startsWith("-provider=")) provider = a.slice(a.indexOf("=") + 1);
  });
  return provider === "openai" ? "OPENAI_API_KEY" : "GEMINI_API_KEY";
}
