// Package rpc is JSON-RPC 2.0 over a byte stream: the connection the ACP
// server speaks to editors on stdio, usable for any JSON-RPC peer.
//
// It owns framing (newline-delimited JSON as ACP uses, or LSP-style
// Content-Length headers), message limits, validation of everything read,
// the scheduling of incoming messages, "$/cancel_request" in both
// directions, the one wire error type (Error, ToWire) and a Mux that routes
// methods to functions with typed params. It is built on
// github.com/sourcegraph/jsonrpc2, whose Conn does the reading loop, id
// assignment and response routing; this package supplies the
// jsonrpc2.ObjectStream and a Handler around it.
//
// # Behaviour on the wire
//
//   - Both directions at once: while serving a request a handler may Call
//     the peer; responses are routed by id.
//   - Every incoming request runs on its own goroutine with its own context,
//     cancelled by "$/cancel_request" naming its id, by the connection
//     closing, and after its response is sent. "$/cancel_request" is acted
//     on in the read loop, never queued.
//   - Notifications are handled one at a time, in arrival order, on one
//     goroutine fed by a bounded queue (Options.NotificationQueue); when it
//     is full the reader waits. A notification handler should therefore not
//     wait for the answer to a Call.
//   - Notify returns once the bytes are written, so a handler's
//     notifications always precede its response. AfterReply schedules work
//     (such as a notification that must follow the answer) for right after
//     the response is written.
//   - Ids are echoed with their exact JSON type and text: integers of any
//     size and sign, strings and null. Fractional or other ids get -32600.
//   - Every message written carries "jsonrpc":"2.0"; a response has exactly
//     one of result and error; a nil or null result is sent as {}.
//   - Invalid input is answered and the connection goes on: bad JSON -32700
//     (id null); batches, non-objects, a missing or wrong "jsonrpc", a
//     non-string method and the like -32600 (with the id when readable);
//     messages over Options.MaxMessageBytes (32 MiB) are skipped without
//     being buffered and answered with -32600; bad Content-Length headers
//     -32700, after which the reader skips to the next "Content-Length:".
//   - Unknown methods get -32601, params that do not decode -32602 with one
//     sentence naming the field, handler panics -32603 (logged). Unknown
//     notifications, responses to ids never used and error responses with
//     id null are logged and dropped.
//   - When Call's context ends first, "$/cancel_request" is sent for it and
//     the late response is dropped.
//   - End of input closes the connection: handler contexts are cancelled and
//     Done is closed once every goroutine of the connection has returned.
//
// Nothing is written to stdout except through the ReadWriteCloser given to
// NewConn. Logging goes to Options.Logger: each message at Debug level with
// its direction, kind, size in bytes (as framed, after redaction), method
// and id (a response names the method it answers, and its error code),
// never its params, result or error text; problems at Warn or Error.
//
// Imports: the standard library and github.com/sourcegraph/jsonrpc2 only;
// no package of this module.
package rpc
