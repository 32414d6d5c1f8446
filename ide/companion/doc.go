// Package companion is the agent side of the Gemini CLI IDE companion
// protocol (shared/ide/COMPANION-SPEC.md): it finds the editor window the
// agent runs in, connects to its MCP server over streamable HTTP, receives
// its editor context and shows edits as native diffs there.
//
// Discover finds the window: the port file under
// <temp dir>/gemini/ide/ whose workspace holds the working directory,
// preferring the editor process the agent runs under and the port named in
// the environment; files of other users and of dead processes are ignored.
// It is cheap (one directory read; the process tree is read from /proc only
// when two windows qualify) and DiscoverOnce runs it at most once. No editor
// is ErrNotFound, on which callers carry on without one.
//
// Connect opens the MCP session (Authorization: Bearer <token>), turns every
// ide/contextUpdate into an ide.Context for Options.OnContext, and keeps the
// session up: when the listening stream breaks, it reconnects with backoff
// and context updates resume. OpenDiff shows a proposed file in the editor's
// diff view and reports the user's answer (accepted with the final, possibly
// edited text; rejected; or lost with the connection) on a channel;
// CloseDiff closes a diff from the agent's side. Close ends every goroutine
// the client started.
//
// The MCP client is companion/mcpclient (on mcp-go's MCP types). The
// package imports it and companion/ide (the context model and
// FromCompanionSpec) and nothing else internal;
// companion/ide/companion/companiontest is an editor stand-in for tests.
package companion
