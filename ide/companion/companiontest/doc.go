// Package companiontest is a stand-in for an editor that follows the Gemini
// CLI IDE companion spec (shared/ide/COMPANION-SPEC.md), for tests of the
// agent side (package companion) and end-to-end tests of the binary.
//
// A Server is an MCP server on github.com/mark3labs/mcp-go over streamable
// HTTP at http://127.0.0.1:<port>/mcp. It checks the bearer token (401),
// refuses any Origin header and any Host but localhost / 127.0.0.1 (403),
// and writes its port file into a temporary directory of the test's choice.
// Its tools openDiff and closeDiff record each call (NextCall); the test
// then answers a diff (Accept, with the user's edited text; Reject), edits
// the text closeDiff returns (Edit), or breaks every connection (Drop).
//
// The standalone GET stream, which carries everything the server says
// unasked, is served here rather than by mcp-go: mcp-go hands a session's
// notifications to whichever of its requests reads them first, and may drop
// one that a finishing POST took, while an editor (and a test) needs them on
// the GET stream, in order. Each session's first GET starts with the current
// context (SetContext), as the VS Code extension does.
//
// It imports mcp-go and the standard library, nothing of companion.
package companiontest
