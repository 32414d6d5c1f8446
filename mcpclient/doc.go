// Package mcpclient is companion's Model Context Protocol client: the
// handshake, the requests companion makes of a server (tools, prompts,
// resources), answers to the server's own requests (elicitation, ping) and
// its notifications, over three transports: stdio (newline-delimited JSON
// on a child's pipes), Streamable HTTP and the legacy HTTP+SSE transport.
//
// JSON-RPC itself (ids, pending calls, routing of answers) is
// github.com/sourcegraph/jsonrpc2 over an object stream this package feeds
// from a Transport. A Transport hands messages to the server with Send and
// delivers what the server says to a Receiver; any other carrier (such as
// an SDK relaying MCP over its own channel) can implement it.
//
// The MCP types are github.com/mark3labs/mcp-go/mcp. This package imports
// neither mcp-go's client nor its server packages: mcp-go's client pulls in
// its server, and with it a JSON-schema compiler whose package initialiser
// costs every start of companion a few milliseconds.
//
// Errors: a server's JSON-RPC error is an *Error (code, message, data); a
// failed carrier (broken pipe, HTTP failure, lost stream) wraps
// ErrTransport, and HTTP 401 and 403 also match ErrUnauthorized and
// ErrForbidden; a closed client gives ErrClosed.
package mcpclient
