package agent

import "errors"

// Sentinel errors of the agent core. Front ends map them to wire errors.
var (
	// ErrBusy is returned by Prompt while the session is already running a turn.
	ErrBusy = errors.New("the session is already answering a prompt; wait for it to finish or cancel it")
	// ErrClosed is returned by Prompt after Close.
	ErrClosed = errors.New("the session is closed")
	// ErrUnknownMode is returned by SetMode for a mode that does not exist.
	ErrUnknownMode = errors.New("unknown mode")
	// ErrUntrusted is returned by SetMode for yolo or auto_edit in a
	// workspace that is not trusted.
	ErrUntrusted = errors.New("the workspace is not trusted")
	// ErrUnknownModel is returned by SetModel for a model that is not offered.
	ErrUnknownModel = errors.New("unknown model")
)
