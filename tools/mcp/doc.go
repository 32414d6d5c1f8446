// Package mcp connects a session to Model Context Protocol servers and offers
// what they provide as companion tools, slash-command prompts and readable
// resources.
//
// A Manager owns the servers of one session. Start connects them all in the
// background (stdio child processes, SSE or streamable HTTP) and returns at
// once; WaitReady lets the agent give them a short, bounded head start before
// the first prompt. A server that fails to start, crashes or hangs never
// fails the session: its status is recorded, it is restarted with
// exponential backoff a bounded number of times, and its tools answer with a
// clear tool error meanwhile. Close stops every server and kills the process
// group of every stdio server; nothing it started outlives it.
//
// The client side of the protocol is companion/mcpclient (on mcp-go's MCP
// types), pinned to the handshake protocol (2025-11-25 and earlier) that
// servers speak today. It imports companion/tools (the Tool interface),
// tools/procgroup (stdio servers in process groups of their own), config
// (the server settings it starts from) and mcpclient. mcp-go's own client
// is not used: it imports mcp-go's server package, and with it a
// JSON-schema compiler whose package initialiser would run at every
// process start (issue 15).
package mcp
