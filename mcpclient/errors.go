package mcpclient

import (
	"context"
	"errors"
	"fmt"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// Sentinel errors; callers test them with errors.Is.
var (
	// ErrTransport wraps every failure of the carrier: a broken pipe, an
	// HTTP request that failed, a stream that ended. The server's own
	// JSON-RPC errors are *Error instead.
	ErrTransport = errors.New("MCP transport failed")
	// ErrClosed means the client was closed.
	ErrClosed = errors.New("MCP client closed")
	// ErrUnauthorized means the server answered HTTP 401.
	ErrUnauthorized = errors.New("MCP server requires authorization (HTTP 401)")
)

// Error is a JSON-RPC error the server answered a request with.
type Error struct {
	Code    int
	Message string
}

// Error implements error.
func (e *Error) Error() string {
	return fmt.Sprintf("%s (code %d)", e.Message, e.Code)
}

// rpcCodes are the JSON-RPC errors mcp-go turns into sentinels, by code.
var rpcCodes = []struct {
	err  error
	code int
}{
	{mcp.ErrParseError, mcp.PARSE_ERROR},
	{mcp.ErrInvalidRequest, mcp.INVALID_REQUEST},
	{mcp.ErrMethodNotFound, mcp.METHOD_NOT_FOUND},
	{mcp.ErrInvalidParams, mcp.INVALID_PARAMS},
	{mcp.ErrInternalError, mcp.INTERNAL_ERROR},
	{mcp.ErrRequestInterrupted, mcp.REQUEST_INTERRUPTED},
	{mcp.ErrResourceNotFound, mcp.RESOURCE_NOT_FOUND},
}

// classify turns what mcp-go returned for a request into the package's
// errors: mcp-go wraps every carrier failure in a *transport.Error, and
// returns the server's JSON-RPC errors as they are.
func classify(err error, closed bool) error {
	var auth *transport.AuthorizationRequiredError
	var tErr *transport.Error
	switch {
	case closed:
		return ErrClosed
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return err
	case errors.As(err, &auth):
		return fmt.Errorf("%w: %w: %w", ErrTransport, ErrUnauthorized, err)
	case errors.As(err, &tErr):
		return fmt.Errorf("%w: %w", ErrTransport, tErr.Err)
	}
	e := &Error{Code: mcp.INTERNAL_ERROR, Message: err.Error()}
	for _, c := range rpcCodes {
		if errors.Is(err, c.err) {
			e.Code = c.code
			break
		}
	}
	return e
}
