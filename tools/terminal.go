package tools

import "context"

// Terminals starts commands in the editor's terminals (ACP terminal/*), so
// the user watches them run. The shell tool falls back to local processes
// when Env.Terminals is nil.
type Terminals interface {
	StartTerminal(ctx context.Context, req TerminalRequest) (Terminal, error)
}

// TerminalRequest describes a command to run in an editor terminal.
type TerminalRequest struct {
	Command string
	Args    []string
	// Dir is the absolute working directory.
	Dir string
	// Env adds variables, as KEY=VALUE.
	Env []string
	// OutputByteLimit bounds the output the editor keeps (the tail); 0 means
	// the editor's default.
	OutputByteLimit int
}

// Terminal is a running (or finished) editor terminal. Release must always
// be called once the caller is done with it.
type Terminal interface {
	ID() string
	// Output returns the output so far and, once the command has exited,
	// its exit status.
	Output(ctx context.Context) (TerminalOutput, error)
	// Wait blocks until the command exits.
	Wait(ctx context.Context) (ExitStatus, error)
	// Kill stops the command; the terminal stays readable.
	Kill(ctx context.Context) error
	// Release kills the command if needed and frees the terminal.
	Release(ctx context.Context) error
}

// TerminalOutput is a terminal's output so far.
type TerminalOutput struct {
	Output    string
	Truncated bool
	// Exit is nil while the command runs.
	Exit *ExitStatus
}

// ExitStatus is how a command ended: an exit code, or a signal.
type ExitStatus struct {
	Code   *int
	Signal string
}
