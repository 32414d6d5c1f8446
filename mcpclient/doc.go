// Package mcpclient is companion's Model Context Protocol client: a thin
// layer over github.com/mark3labs/mcp-go's client and transports that
// gives the rest of companion one vocabulary for MCP sessions.
//
// mcp-go does the protocol: on Initialize it first asks the server
// server/discover at the newest version (2026-07-28, the stateless core:
// no initialize, the version in each request's _meta) and falls back to
// the initialize handshake for servers of 2025-11-25 and 2025-06-18. Its
// transports carry the messages: stdio (newline-delimited JSON on a
// child's pipes), Streamable HTTP (with resumption of a broken response
// stream) and the legacy HTTP+SSE transport. A caller's own carrier (an
// SDK relaying MCP over its channel) implements Transport.
//
// What this package adds: a bound on the server/discover probe (a stdio
// server that ignores it must not hold up start-up), the subscription to
// list_changed notifications on stateless connections, a report when the
// connection is lost, and errors callers can test with errors.Is.
//
// Errors: a server's JSON-RPC error is an *Error; a failed carrier (broken
// pipe, HTTP failure, lost stream) wraps ErrTransport, and HTTP 401 also
// matches ErrUnauthorized; a closed client gives ErrClosed.
package mcpclient
