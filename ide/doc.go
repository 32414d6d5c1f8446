// Package ide owns the editor context the agent receives: the model of
// workspace folders, open files (cursor, selection), diagnostics and
// workspace trust; decoding it from the ACP extension notification
// `_companion/ide/contextUpdate` (ParseUpdate) and from the Gemini CLI IDE
// companion's `ide/contextUpdate` (FromCompanionSpec); the limits (10 files,
// 16 KiB selection, 200 diagnostics; Context.Normalize); and, per session,
// the Tracker that merges updates and renders them as text for the model:
// in full on the first turn and after compression, afterwards only the
// changes.
//
// Positions are LSP's (0-based, JSON as in LSP). The LSP shapes are defined
// here, small, rather than taken from go.lsp.dev/protocol: its newest tag,
// v0.12.0 (March 2022), pulls go.lsp.dev/jsonrpc2, zap and
// segmentio/encoding into the binary for five structs, and types the
// severity as float64 and the code as interface{}.
//
// It imports only the standard library: no wire protocol (acp, rpc), no
// agent, no tools and not ide/companion, which imports it. Reading files
// for the lines around the cursor goes through a ReadFileFunc the caller
// gives, so the editor's unsaved buffers are what the model sees.
package ide
