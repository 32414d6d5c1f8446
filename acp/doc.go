// Package acp is companion's Agent Client Protocol (ACP v1) layer: the wire
// types generated from the pinned schema, the agent-side server (server.go,
// one file per method group), the typed client proxy (client.go), the
// editor-backed ports the host wires into sessions (tools.Files,
// terminals, the asker, MCP forms), IDE context from the editor, and agent
// events → session/update (updates.go, also the session's host.Observer).
// Handlers decode, call the host (package host builds, keeps and ends the
// sessions), and encode.
//
// It imports rpc, host, agent (with agent/model), tools, tools/mcp, ide
// and config. agent and tools never import it; internal/layers checks
// both.
//
// # Generated types
//
// types_gen.go, unions_gen.go and methods_gen.go are generated from
// acp/schema (`go generate ./acp`, see internal/acpgen); a test fails when
// they are stale. codec.go and rawjson.go hold the helpers the generated
// code calls, helpers.go small hand-written constructors. The mapping:
//
//   - Names read as Go: SessionId → SessionID, McpServerHttp → MCPServerHTTP,
//     mimeType → MIMEType. JSON tags keep the schema's camelCase exactly.
//   - Required fields are never omitted. Required arrays are written as []
//     when nil (NewSessionRequest.MCPServers, ListSessionsResponse.Sessions).
//   - Optional strings and string enums are plain values with omitempty
//     (Diff.OldText is *string: "" means an empty file, nil a new one).
//     Optional numbers, and booleans without a false default, are pointers.
//     Optional objects that may be null are pointers (an empty {} capability
//     marker is meaningful); optional objects with defaults are values with
//     omitzero. Optional arrays and maps use omitzero: nil is absent, an
//     empty non-nil slice is written as [] (tool_call_update uses that to
//     clear content).
//   - _meta is Meta map[string]any with omitempty.
//   - Free-form JSON (rawInput, rawOutput, Error.data) is json.RawMessage,
//     always: it keeps the bytes as sent and costs nothing to pass through.
//   - Untagged unions of primitives (RequestID, ElicitationContentValue) are
//     comparable structs holding compact JSON text; build them with NewX or
//     the helpers, read them with Raw.
//   - Unions are structs with one pointer per variant; set exactly one.
//     MarshalJSON writes the variant's members beside its discriminator
//     (flattened); UnmarshalJSON picks the variant from it. An untagged
//     variant (stdio MCP servers, agent auth methods) is written without the
//     discriminator and read when it is absent (or names it, e.g.
//     "type":"stdio"). Unions whose schema allows any other tag keep unknown
//     variants in Other; the rest fail with ErrUnknownVariant, so a request
//     carrying an unknown content block type is invalid params. Encoding a
//     union with zero or several variants set fails with ErrVariantCount.
//   - Enums are named strings (ints for ErrorCode). Decoding keeps unknown
//     values as they are, so a lenient reader can map an unknown ToolKind to
//     "other" itself; no other x-deserialize-default-on-error leniency is
//     built in.
//   - Unknown members are ignored on decode.
//
// # Extensions
//
// initialize advertises companion's extensions in
// agentCapabilities._meta.companion: "ideContext" (the
// _companion/ide/contextUpdate notification), "rewind" and "fork" (the
// methods below), "sandbox" (the command sandbox, when one is on).
//
// session/load replays, beside the updates the session sent live, what
// only the live turn said (ACP has no update for either): each permission
// answer as a tool_call_update of its call carrying only
// _meta.companion.permission = {"title", "options", "optionId"} (no
// optionId: dismissed or cancelled), and each turn that did not end
// plainly as a session_info_update carrying only _meta.companion.turnEnd =
// {"stopReason", "error"}. A replayed command that ran in an editor
// terminal names no terminal (it is gone): its last update carries the
// output and exit status as text.
//
// _companion/session/rewind, params
//
//	{"sessionId": S, "prompt": N, "restoreFiles": true|false}
//
// where N is the 0-based index of a user prompt of session S: the Nth
// session/prompt the session received, those replayed by session/load
// and slash-command prompts included (an in-place /rewind cuts the count
// back). It stores a NEW session (a fork) whose history is S's before
// prompt N, with S's current mode and model; with restoreFiles the files
// go back to the checkpoint taken just before the first change made from
// prompt N on (later prompts' changes are undone too; nothing is
// restored when no change was made since). S stays stored as it was. The
// result is
//
//	{"sessionId": NEW, "prompt": [ContentBlock…], "restored": [path…]}
//
// prompt is prompt N's content blocks as the editor sent them (as text
// blocks when they were too large to keep, or the session predates
// this), for the input box; restored are the absolute paths written or
// removed. The editor then opens NEW with session/load, which replays the
// shortened history. Errors: an unknown session, a missing or
// out-of-range prompt, or a session with a turn running are -32602 with
// one sentence (the last says "busy"); a failed restore is -32603 (the
// fork exists; its id is in the message).
//
// _companion/session/fork, params {"sessionId": S}, result
// {"sessionId": NEW}: a copy of the whole conversation as it would load,
// files untouched; errors as for rewind. It stands in for the unstable
// session/fork, which the pinned schema lacks.
//
// The /rewind slash command does the same in place for front ends without
// these methods: /rewind lists the prompts, /rewind N puts the files back,
// cuts the session's history to before prompt N (a reload shows the cut
// history) and keeps the conversation as it was as a stored fork whose id
// it tells.
//
// _companion/session/stats, params {"sessionId": S}: the session's
// figures (agent.Stats) and "languageServers", the lines /status gives
// for its language servers, one each: a running server's name, root,
// state and memory ("gopls (/w): running, 84 MB"), one that applies but
// has not started, a missing one as one sentence with its install
// command, and, when the editor answers with its own language features,
// a line saying so. The editors show them in their status views.
//
// _companion/lsp (agent → client request) asks the editor's own language
// features instead of starting a second language server. A client offers
// it with clientCapabilities._meta.companion.lsp = true. Params
//
//	{"sessionId": S, "path": ABS, "method": M, "params": P}
//
// carry one LSP request, M and P as a language server would get them,
// about the file ABS: textDocument/definition, textDocument/references,
// textDocument/hover, textDocument/documentSymbol, workspace/symbol,
// textDocument/rename (positions 0-based, characters in UTF-16 code
// units), or textDocument/diagnostic (P {"textDocument": {"uri"}}; the
// editor waits up to about a second for the file's diagnostics to change
// after an edit, then answers a full report {"kind": "full", "items"}).
// The result is {"available": false} when the editor has no language
// features for the file (companion then asks a language server, starting
// it if need be), else {"available": true, "result": R} with R as a
// language server answers M (null for nothing). An error answer makes
// companion ask the server too. A rename's WorkspaceEdit is applied by
// companion, through the usual review, never by the editor.
package acp
