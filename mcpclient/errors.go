package mcpclient

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
)

// Sentinel errors; callers test them with errors.Is.
var (
	// ErrTransport wraps every failure of the carrier: a broken pipe, an
	// HTTP request that failed, a stream that ended. The server's own
	// JSON-RPC errors are *Error instead.
	ErrTransport = errors.New("MCP transport failed")
	// ErrClosed means the client (or its transport) was closed.
	ErrClosed = errors.New("MCP client closed")
	// ErrUnauthorized means the server answered HTTP 401.
	ErrUnauthorized = errors.New("MCP server requires authorization (HTTP 401)")
	// ErrForbidden means the server answered HTTP 403.
	ErrForbidden = errors.New("MCP server refused access (HTTP 403)")
	// ErrSessionExpired means an HTTP server no longer knows the session
	// (HTTP 404 to a request carrying its id); a new one must be started.
	ErrSessionExpired = errors.New("MCP session expired (HTTP 404)")
)

// Error is a JSON-RPC error the server answered a request with.
type Error struct {
	Code    int64
	Message string
	// Data is the error's data member as sent, nil when absent.
	Data json.RawMessage
}

// Error implements error.
func (e *Error) Error() string {
	return fmt.Sprintf("%s (code %d)", e.Message, e.Code)
}

// HTTPError is an HTTP answer with a status the transport cannot use. It
// matches ErrUnauthorized for 401, ErrForbidden for 403 and
// ErrSessionExpired for a 404 after the session started.
type HTTPError struct {
	StatusCode int
	// Body is the start of the answer's body, for the message.
	Body string
	// session is set when the request carried a session id.
	session bool
}

// Error implements error.
func (e *HTTPError) Error() string {
	msg := fmt.Sprintf("HTTP %d %s", e.StatusCode, http.StatusText(e.StatusCode))
	if e.Body != "" {
		msg += ": " + e.Body
	}
	return msg
}

// Is matches the sentinel of the status.
func (e *HTTPError) Is(target error) bool {
	switch target {
	case ErrUnauthorized:
		return e.StatusCode == http.StatusUnauthorized
	case ErrForbidden:
		return e.StatusCode == http.StatusForbidden
	case ErrSessionExpired:
		return e.StatusCode == http.StatusNotFound && e.session
	case ErrTransport:
		return true
	}
	return false
}

// transportErr wraps err as a transport failure unless it is one already.
func transportErr(err error) error {
	if err == nil || errors.Is(err, ErrTransport) {
		return err
	}
	return fmt.Errorf("%w: %w", ErrTransport, err)
}
