package mcp

import "errors"

// Sentinel errors of the package. Callers test them with errors.Is; the
// messages that reach users carry more detail around them.
var (
	// ErrBadConfig means a server's settings cannot be used.
	ErrBadConfig = errors.New("invalid MCP server configuration")
	// ErrUnknownServer means no configured server has the given name.
	ErrUnknownServer = errors.New("unknown MCP server")
	// ErrNotReady means the server is not connected (still connecting,
	// restarting or failed).
	ErrNotReady = errors.New("MCP server is not ready")
	// ErrUnknownPrompt means the server offers no prompt of that name.
	ErrUnknownPrompt = errors.New("unknown MCP prompt")
	// ErrMissingArgument means a required prompt argument was not given.
	ErrMissingArgument = errors.New("missing prompt argument")
	// ErrServerExited means a stdio server's process ended.
	ErrServerExited = errors.New("MCP server process exited")
)
