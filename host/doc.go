// Package host is the session host every front end shares: the ACP server
// (package acp) and headless runs (package headless) decode their wire,
// call the host, and encode its answers.
//
// A Host owns the live sessions of one front end (the registry), the
// session store, the configuration (replaced on authenticate), the MCP
// lifecycle of each session, the link to a Gemini CLI IDE companion (its
// context reaches the sessions under its workspace, edits also open its
// diff view) and everything that wires a session together: roots, the
// project's settings laid over the user's in trusted folders, the
// permission policy, hooks, memory, subagents, slash commands,
// checkpoints, the journal, agent.NewSession or agent.Restore, and the
// cleanup. Models builds model providers from the settings and builds a
// new one when they change.
//
// Workspace trust is one rule for every front end (trust.go): a session is
// untrusted when folder trust does not list its folder or the editor says
// isTrusted:false (which always wins). An untrusted session loads nothing
// from the project, offers no yolo or auto_edit and asks before every edit
// and command; a live session that loses trust drops to default and is
// told once why.
//
// Front ends reach it through small ports: Ports carries what a client
// offers one session (files, terminals, an asker, an elicitor for MCP
// forms, the event sink) and an Observer that hears what happens outside
// the event stream (the session exists, MCP commands changed, an MCP
// server failed), in place of references back into the session.
//
// It imports agent, tools, ide, config and their subpackages (the model
// providers among them); never acp, rpc or headless.
package host
