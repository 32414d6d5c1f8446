// Package textproto lets models without native function calling use tools.
// Wrap decorates a model.Model: it describes the request's tools in the
// system prompt with a plain-text call format (a ```tool_call fenced block
// holding {"name": ..., "arguments": {...}}), rewrites the history's function
// calls and responses as text in that format, and parses the streamed reply
// back into text, thought (<think>) and function call parts.
//
// It imports agent/model and nothing else of companion's own.
package textproto
