// Package frontend builds agent sessions from the settings, for every front
// end: the ACP server (package acp) and headless runs (package headless).
// It owns what does not depend on the wire: the project's settings laid
// over the user's in trusted folders, the permission policy, hooks, MCP
// servers from the settings, memory, subagents, slash commands, checkpoints
// and the session store. Front ends add what their client offers (files,
// terminals, a way to ask) and their event sink.
//
// It imports agent, tools, config and their subpackages; never acp, rpc or
// headless.
package frontend
