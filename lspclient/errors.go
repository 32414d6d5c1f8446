package lspclient

import "errors"

// ErrServer wraps an error answer of the server.
var ErrServer = errors.New("language server error")
