package slash

import "errors"

// Sentinel errors of the slash package.
var (
	// ErrBadTOML marks a command file that is not valid TOML of the
	// expected shape.
	ErrBadTOML = errors.New("invalid command file")
	// ErrNoPrompt marks a command file without a prompt.
	ErrNoPrompt = errors.New("command file has no prompt")
	// ErrBadName marks a command file whose path cannot name a command
	// (a folder or file name with spaces or colons).
	ErrBadName = errors.New("command file name cannot be a command name")
	// ErrTooLarge marks a command file too big to be a prompt template.
	ErrTooLarge = errors.New("command file too large")
	// ErrUnclosed marks a template with an @{ or !{ that is never closed.
	ErrUnclosed = errors.New("unclosed block in prompt template")
	// ErrUnquotable is returned by Expand when the arguments cannot be
	// shell-quoted for a !{...} block (they contain a NUL byte).
	ErrUnquotable = errors.New("arguments cannot be quoted for the shell")
)
