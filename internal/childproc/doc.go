// Package childproc holds what companion's long-lived child servers share:
// MCP stdio servers (tools/mcp) and language servers (tools/lsp) are both
// started with the agent's environment plus a few variables from settings,
// and both explain a crash with the last lines the server wrote to stderr.
//
// It is a leaf: it imports only the standard library.
package childproc
