package host

import (
	"companion/agent"
	"companion/tools"
	"companion/tools/lsp"
	"companion/tools/mcp"
)

// Ports are what a front end's client offers one session. The host wires
// them into the agent session; every field but Sink may be nil.
type Ports struct {
	// Files reads and writes through the client; nil uses the local disk.
	Files tools.Files
	// Terminals runs commands in the client; nil runs them locally.
	Terminals tools.Terminals
	// Asker asks the user about calls the policy cannot decide; nil
	// refuses them.
	Asker agent.Asker
	// Elicit lets MCP servers ask the user through a form; nil tells them
	// the client cannot.
	Elicit mcp.Elicitor
	// Questions puts the model's ask_user questions to the user; nil
	// tells the model no one can answer.
	Questions tools.Questioner
	// Language answers language questions (definition, references,
	// hover, symbols, rename, diagnostics) with the editor's own language
	// features, before a language server is started; nil when the client
	// offers none.
	Language lsp.Editor
	// Sink receives the session's events.
	Sink agent.Sink
	// Observer hears what happens to the session outside its turns.
	Observer Observer
	// Headless is set by front ends where no one answers questions as
	// they come (companion run): MCP servers' sampling requests are then
	// refused unless the user's settings allow them.
	Headless bool
}

// Observer hears what the host learns about a session outside the agent's
// event stream. Front ends register one with a session's Ports instead of
// reaching back into the session.
type Observer interface {
	// Opened is called once the agent session exists, before its MCP
	// servers start and before it is handed to the front end.
	Opened(a *agent.Session)
	// CommandsChanged is called when an MCP server's tools or prompts
	// changed the session's command list.
	CommandsChanged(cmds []agent.Command)
	// MCPFailed is called once for each new reason an MCP server failed.
	MCPFailed(server, reason string)
}
