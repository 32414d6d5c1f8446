package tools

import "errors"

// Sentinel errors of the package. Callers test them with errors.Is; the
// messages that reach the model carry more detail around them.
var (
	// ErrOutsideRoots means a path lies outside every workspace root.
	ErrOutsideRoots = errors.New("path is outside the workspace roots")
	// ErrInvalidArgs means a tool call's arguments do not fit its schema.
	ErrInvalidArgs = errors.New("invalid tool arguments")
	// ErrDuplicateTool means a registry already holds a tool of that name.
	ErrDuplicateTool = errors.New("duplicate tool name")
	// ErrBadRoot means a directory cannot serve as a workspace root.
	ErrBadRoot = errors.New("invalid workspace root")
	// ErrFileTooLarge is ReadLocal's refusal of a file over its limit.
	ErrFileTooLarge = errors.New("file too large")
)

// ErrBackgroundClosed means a session's background registry is closed: no
// more background commands start.
var ErrBackgroundClosed = errors.New("background processes are closed")
