// Package headless is companion's front end for runs without an editor:
// `companion run`. It runs prompts on the same agent core as the ACP
// server and writes what happens as plain text, one JSON object, or a
// stream of JSON lines; with stream-json input it also speaks the SDK
// control protocol (PROTOCOL.md): control requests in both directions,
// can_use_tool questions, SDK-registered hooks and SDK-hosted MCP servers.
//
// Sessions are built by a host (package host); headless decodes flags and
// stream-json, calls the host, and encodes. It imports host, agent, tools,
// config and their subpackages; never acp or rpc.
package headless
