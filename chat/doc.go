// Package chat is companion's interactive line-mode front end: what
// `companion` alone in a terminal starts. It reads a prompt line, streams
// the answer, asks permission questions inline (with the option names the
// agent sends), passes `/` lines to the session's slash commands, cancels
// the running turn on Ctrl-C (a second Ctrl-C at an empty prompt exits)
// and exits at end of input.
//
// The terminal stays in its normal (cooked) mode: the terminal edits the
// line and turns Ctrl-C into SIGINT, which the caller delivers on
// Options.Interrupts. Sessions come from a host (package host), as for
// the headless front end; chat imports host, agent, tools and config,
// never acp, rpc or headless.
package chat
