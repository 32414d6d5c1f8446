// Package telemetry exports what sessions do over OpenTelemetry: traces
// (a prompt turn, its model requests, tool calls, hooks, compressions and
// subagents' turns), metrics (sessions, turns, requests, tokens, tool
// calls, latencies, loops, compressions, permission answers) and logs
// (session start, user prompts, model fallbacks, MCP server states), to
// an OTLP collector over HTTP or gRPC, or to a file one JSON object a
// line.
//
// It is off unless the user enables it: the host builds a Provider only
// then, so a session without telemetry never initialises the SDK, opens
// no file and makes no connection. A Provider is one session's (its
// resource carries the session id); Shutdown flushes it within a bound,
// which one deadline in the caller's context can share among providers.
// Prompt text and tool arguments are exported only with LogPrompts; the
// API key never is. The names it records are listed by Catalog and in
// docs/telemetry.md (a test keeps the two the same).
package telemetry
