// Package lspclient is companion's Language Server Protocol client: the
// handshake (initialize, initialized), document sync by whole text,
// pushed and pulled diagnostics, and the requests the agent's navigation tools make
// (definition, references, hover, document and workspace symbols,
// rename), over a server's stdio with Content-Length framing on
// sourcegraph/jsonrpc2, the JSON-RPC library the rest of companion uses.
// It answers the requests servers make of every client (configuration,
// workspace folders, registrations, progress tokens) and never applies
// an edit a server asks for: edits go through the agent's review.
//
// The protocol types are a hand-declared subset (protocol.go, about 200
// lines), not go.lsp.dev/protocol. Measured with companion's stripped
// binary (go build -ldflags=-s ./cmd/companion, Go 1.26, linux/amd64):
// importing go.lsp.dev/protocol v0.12.0 alone adds 229 KB and seven
// packages with init work (zap, segmentio/encoding's JSON, go.uber.org
// atomic and multierr: 0.13-0.26 ms and 4 KB of allocations at every
// start, needed or not), and brings a second JSON-RPC library
// (go.lsp.dev/jsonrpc2) beside sourcegraph/jsonrpc2; in a program of its
// own it grows a 1.9 MB binary to 4.1 MB. Its types follow LSP 3.16
// (no pull diagnostics, no position encodings), and companion reads a
// dozen of them. The subset costs nothing at init.
//
// It imports nothing of companion; tools/lsp runs the servers.
package lspclient
