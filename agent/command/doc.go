// Package command is a session's command layer: the slash commands a user
// types in the editor's prompt. The built-in ones (/help, /clear, /model,
// /mode, /undo, /rewind, /status, …) are declared once in builtinTable,
// which is both the list editors show and the dispatch; the others are
// those defined in files (agent/slash), the skills (/skill-name) and the
// MCP servers' prompts (server:prompt).
//
// New builds the layer for one session; the host sets
// agent.Options.Commands to it, and the session hands the layer every
// prompt that starts with a slash (agent.CommandLayer). The layer holds the
// session and, being outside package agent, drives it only through its
// exported methods, as a front end does; what else it needs (the MCP
// servers, checkpoints, the journal's forker, …) it takes from the
// session's options when it is built.
package command
