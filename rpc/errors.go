package rpc

import (
	"context"
	"errors"
	"fmt"
)

// ErrClosed is returned by Call and Notify once the connection is closed.
var ErrClosed = errors.New("rpc: connection closed")

// Error codes used on the wire: the JSON-RPC 2.0 ones and those ACP adds.
const (
	CodeParseError       = -32700
	CodeInvalidRequest   = -32600
	CodeMethodNotFound   = -32601
	CodeInvalidParams    = -32602
	CodeInternalError    = -32603
	CodeRequestCancelled = -32800
	CodeAuthRequired     = -32000
	CodeResourceNotFound = -32002
)

// Error is a JSON-RPC error object, the one error type that crosses the
// wire. Handlers return it (possibly wrapped) to choose the code sent to the
// peer; a Call that gets an error response returns it. Data received from
// the peer is a json.RawMessage; Data sent is marshalled with encoding/json.
type Error struct {
	Code    int64  `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
}

// Error implements the error interface.
func (e *Error) Error() string {
	return fmt.Sprintf("rpc error %d: %s", e.Code, e.Message)
}

// Errorf returns an *Error with the given code and a formatted message.
func Errorf(code int64, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ToWire maps any Go error to the error sent to the peer: an *Error found
// with errors.As is used as is, context.Canceled and DeadlineExceeded become
// -32800, anything else -32603 with err's text. ToWire(nil) is nil.
func ToWire(err error) *Error {
	if err == nil {
		return nil
	}
	if e, ok := errors.AsType[*Error](err); ok {
		if e == nil {
			return Errorf(CodeInternalError, "handler returned a nil *rpc.Error")
		}
		return e
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return &Error{Code: CodeRequestCancelled, Message: "request cancelled: " + err.Error()}
	}
	return &Error{Code: CodeInternalError, Message: err.Error()}
}
