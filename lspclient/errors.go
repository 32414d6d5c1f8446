package lspclient

import "errors"

// ErrServer wraps an error answer of the server.
var ErrServer = errors.New("language server error")

// ErrRetrigger wraps a server's "cancelled, ask again" answer to a pull
// for diagnostics (ServerCancelled with retriggerRequest): the server was
// busy or its state changed, and the same request later will be answered.
var ErrRetrigger = errors.New("language server asks to pull again")
