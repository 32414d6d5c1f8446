// Package mcp connects a session to Model Context Protocol servers and offers
// what they provide as companion tools, slash-command prompts and readable
// resources.
//
// A Manager owns the servers of one session. Start connects them all in the
// background (stdio child processes, SSE or streamable HTTP) and returns at
// once; WaitReady lets the agent give them a short, bounded head start before
// the first prompt. A server that fails to start, crashes or hangs never
// fails the session: its status is recorded, it is restarted after 1 s,
// 2 s, 4 s… (at most 60 s), at most 5 times in 10 minutes, its tools and
// prompts are withdrawn while it is down, and OnState hears once that it
// went down, came back or was given up. Close stops every server and
// kills the process group of every stdio server; nothing it started
// outlives it.
//
// Servers that ask get the session's roots (roots/list, and
// notifications/roots/list_changed from RootsChanged) and may ask for a
// completion from the session's model through a Sampler, which decides
// whether the user must approve it.
//
// HTTP and SSE servers that require OAuth get it through an Auth
// (auth*.go, on companion/mcpclient/oauth): their requests carry the
// stored bearer token, refreshed before it expires and on a 401; when no
// grant helps, the server waits for the user to authorise companion (the
// link shown through AuthOptions.Show, a browser opened) while the
// session goes on, and its tools appear once it is authorised.
//
// The client side of the protocol is companion/mcpclient, on mcp-go's
// client and transports: server/discover at 2026-07-28 first (bounded on
// stdio), the initialize handshake for servers of 2025-11-25 and
// 2025-06-18. A server's elicitation, sampling and roots questions arrive
// either way (as input requests, or as requests of the server) and go to
// the same handlers. It imports companion/tools (the Tool interface),
// tools/procgroup (stdio servers in process groups of their own), config
// (the server settings it starts from), mcpclient and mcpclient/oauth.
package mcp
