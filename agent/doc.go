// Package agent is companion's protocol-agnostic core: sessions, the turn
// loop (model request → streamed events → tool calls → function responses →
// next request), curated history, the system prompt and slash commands.
//
// Front ends (ACP, headless runs) drive a Session and receive its Events
// through a Sink; they never see model or tool internals. agent imports
// its subpackages, tools (with tools/mcp and tools/policy) and ide, never
// acp, rpc, headless or frontend.
package agent
