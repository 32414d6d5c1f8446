// Package sdktest plays an SDK in end-to-end tests of `companion run`'s
// stream-json control protocol (headless/PROTOCOL.md): it starts the real
// companion binary with --input-format and --output-format stream-json,
// sends user messages and control requests over stdin, reads every stdout
// line into a Message, answers companion's own control requests
// (can_use_tool, hook_callback, mcp_message to SDK-hosted mcp-go servers)
// with the handlers a test gives it, and records what broke the protocol
// (lines that are not messages, messages without uuid or session_id,
// answers to no pending request) for the test to check. Run and
// ParseStream cover one-shot runs (text, json, stream-json output).
//
// Every wait takes a context; the reader and handler goroutines end when
// the process does, and Start registers a cleanup that kills the process
// and waits for them. It imports the standard library and mcp-go only.
package sdktest
