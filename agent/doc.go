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
// Session type): the turn gate, the turn engine, the command layer, the
// journal writer and its one replay, the model picker, the counts, the
// plan. The turn engine (engine, turn.go) runs a prompt: history,
// requests, compression, loop detection; it takes each tool call through
// a chain of steps (toolchain.go, with a toolstep_*.go file for each large
// step): report, timing, hooks, announce, permission, checkpoint,
// diagnostics, execute. The command layer (commands, commands.go) answers
// slash commands; the built-in ones are declared once in builtinTable.
// replayJournal (resume.go) reads a journal back for Restore, /rewind and
// PlanRewind alike.
//
// The system prompt (prompt.go, prompt_text.go, system.go) is a list of
// named parts, each rendered from plain inputs (golden files in testdata)
// and each but the untrusted-data rules switchable off in settings. It is
// built once per session and, with the sorted tool declarations, opens
// every request unchanged; what changes per request comes last (request.go).
//
// Untrusted text stays data (untrusted.go): every function response, every
// attached file or resource, what file commands insert (@{file}, !{cmd})
// and the editor context reach the model inside a frame whose tag carries
// a per-session random nonce, which the system prompt explains. Function
// responses are framed as each request is built (history and the editor
// keep the plain text); the rest is framed when it is read.
//
// A call that asks to run outside the command sandbox (permission_sandbox.go)
// is a permission of its own: asked in every mode, never "always".
package agent
