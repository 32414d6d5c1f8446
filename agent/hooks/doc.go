// Package hooks runs the user's guard rails: shell commands configured in
// the settings files that the agent calls at fixed points of a session
// (session start and end, before and after each turn, each model call and
// each tool call, before compression, on notifications). A hook reads a JSON
// description of the event on stdin and may answer on stdout with a
// decision (allow, ask, deny, block), a reason, a message for the user, a
// replacement tool input or a request to stop.
//
// The package owns the configuration format (Parse), running the commands
// (each under `bash -c` in a process group of its own, killed on timeout or
// cancellation) and folding several answers into one Outcome. What an
// Outcome means for the turn (asking the user, refusing a tool call) is the
// agent's policy, not this package's.
//
// It imports tools (the names Claude Code and Gemini CLI give companion's
// tools, see dialect.go), tools/procgroup (hook commands run in process
// groups of their own) and tools/shell.
package hooks
