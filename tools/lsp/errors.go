package lsp

import "errors"

// ErrUnavailable means a language server could not be used now: it failed
// to start, or crashed and waits for its restart.
var ErrUnavailable = errors.New("language server unavailable")
