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
//
// Untrusted text stays data (untrusted.go): every function response and
// every attached file reaches the model inside a frame whose tag carries a
// per-session random nonce, which the system prompt explains. Function
// responses are framed as each request is built (history and the editor
// keep the plain text); attached files are framed when they are read.
package agent
