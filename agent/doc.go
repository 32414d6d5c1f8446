// Package agent is companion's protocol-agnostic core: sessions, the turn
// loop (model request → streamed events → tool calls → function responses →
// next request), curated history, the system prompt and slash commands.
//
// Front ends (ACP, headless runs) drive a Session and receive its Events
// through a Sink; they never see model or tool internals. agent imports
// its subpackages, tools (with tools/mcp and tools/policy) and ide, never
// acp, rpc, headless or frontend.
//
// A Session is a facade over parts with their own state and lock (see the
// Session type): the turn gate, the history (compression, journal replay),
// the journal writer, the model picker, the counts, the plan. A tool call
// runs through a chain of steps (toolchain.go, one toolstep_*.go file per
// step): report, timing, hooks, announce, permission, checkpoint,
// diagnostics, execute.
package agent
