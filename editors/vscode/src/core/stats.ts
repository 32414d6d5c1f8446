// A session's figures from companion's `_companion/session/stats` extension
// method (advertised as `agentCapabilities._meta.companion.stats`): model
// requests, errors, tokens by type, time in the model and in tools, tool
// calls and who decided them. The status bar tooltip and the "Show Session
// Stats" command render them with formatStats.

/** STATS_METHOD is companion's extension request for a session's figures. */
export const STATS_METHOD = "_companion/session/stats";

/** Token counts by type. */
export interface TokenStats {
  prompt: number;
  output: number;
  cached: number;
  thoughts: number;
  total: number;
}

/** Who let the session's tool calls run, or stopped them. */
export interface Decisions {
  policy: number;
  mode: number;
  hook: number;
  user: number;
  rejected: number;
  denied: number;
  blocked: number;
}

/** What STATS_METHOD answers (times in ms, ratios 0..1). */
export interface SessionStats {
  sessionId: string;
  requests: number;
  errors: number;
  tokens: TokenStats;
  cacheHitRatio: number;
  modelTimeMs: number;
  toolTimeMs: number;
  toolCalls: number;
  toolSuccess: number;
  toolFailed: number;
  successRate: number;
  decisions: Decisions;
  models: { name: string; requests: number; errors: number; tokens: TokenStats; cacheHitRatio: number; timeMs: number }[];
  tools: { name: string; calls: number; success: number; failed: number; successRate: number; timeMs: number }[];
  /**
   * The session's language servers as /status lists them, one line each:
   * state and memory of a running one, a missing one with its install
   * command, and whether the editor answers with its own language features.
   */
  languageServers?: string[];
}

/** advertisesStats: the initialize result's `_meta.companion.stats` is true. */
export function advertisesStats(meta: unknown): boolean {
  const m = meta as { companion?: { stats?: unknown } } | null | undefined;
  return m?.companion?.stats === true;
}

/** isStats checks that an answer has the figures formatStats reads. */
export function isStats(v: unknown): v is SessionStats {
  const s = v as SessionStats | null;
  return !!s && typeof s.requests === "number" && !!s.tokens && typeof s.tokens.prompt === "number" && Array.isArray(s.models) && Array.isArray(s.tools);
}

/** formatLanguageServers renders the session's language servers (or that there are none) as lines. */
export function formatLanguageServers(list: string[] | undefined): string {
  if (!list) return "";
  if (list.length === 0) return "Language servers: none for this workspace";
  return ["Language servers:", ...list.map((l) => `- ${l}`)].join("\n");
}

/** formatStats renders the figures as plain lines (tooltip, text document). */
export function formatStats(s: SessionStats): string {
  const d = s.decisions;
  const lines = [
    `Model requests: ${s.requests} (${plural(s.errors, "error")})`,
    `Tokens: ${tokensLine(s.tokens, s.cacheHitRatio)}`,
    `Time: ${seconds(s.modelTimeMs)} in the model, ${seconds(s.toolTimeMs)} in tools`,
    `Tool calls: ${s.toolCalls} (${s.toolSuccess} succeeded, ${s.toolFailed} failed; ${percent(s.successRate, s.toolCalls)} success)`,
    `Decisions: allowed ${d.policy} by policy or rule, ${d.mode} by mode, ${d.user} by you, ${d.hook} by a hook; ` +
      `${d.rejected} rejected, ${d.denied} denied by policy, ${d.blocked} blocked by a hook`,
  ];
  for (const m of s.models) lines.push(`Model ${m.name}: ${plural(m.requests, "request")}, ${plural(m.errors, "error")}; ${tokensLine(m.tokens, m.cacheHitRatio)}; ${seconds(m.timeMs)}`);
  for (const t of s.tools) lines.push(`Tool ${t.name}: ${plural(t.calls, "call")}, ${t.success} succeeded, ${t.failed} failed; ${seconds(t.timeMs)}`);
  return lines.join("\n");
}

function tokensLine(t: TokenStats, hit: number): string {
  return `${t.prompt} prompt, ${t.output} output, ${t.cached} cached (${percent(hit, t.prompt)} cache hits), ${t.thoughts} thoughts, ${t.total} total`;
}

function plural(n: number, one: string): string {
  return `${n} ${n === 1 ? one : `${one}s`}`;
}

function percent(r: number, of: number): string {
  return of === 0 ? "n/a" : `${(r * 100).toFixed(1)}%`;
}

/** seconds writes 1234 ms as "1.2s" and 40 ms as "40ms". */
export function seconds(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)}ms` : `${(ms / 1000).toFixed(1)}s`;
}
