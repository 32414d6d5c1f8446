package rpc

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
)

// kind tells what an incoming message is.
type kind int

const (
	kindRequest kind = iota
	kindNotification
	kindResponse
)

// String names the kind for logs.
func (k kind) String() string {
	return [...]string{"request", "notification", "response"}[k]
}

// message is one validated incoming message, with its raw parts.
type message struct {
	kind   kind
	id     json.RawMessage // exact bytes as received; nil for notifications
	method string
	params json.RawMessage // nil when absent
	result json.RawMessage // responses: nil when this is an error response
	err    *Error          // responses: the peer's error, Data a json.RawMessage
}

var jsonNull = json.RawMessage("null")

// parseMessage validates one framed message. On failure it returns the error
// to answer and the id to answer it with (null when the id is unreadable).
func parseMessage(frame []byte) (message, *Error, json.RawMessage) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(frame, &fields); err != nil || fields == nil {
		return message{}, notObject(frame, err), jsonNull
	}
	rawID, hasID := fields["id"]
	if hasID && !validID(rawID) {
		return message{}, Errorf(CodeInvalidRequest,
			"invalid request: id must be an integer, a string or null, not %s", clip(string(rawID))), jsonNull
	}
	replyID := jsonNull
	if hasID {
		replyID = rawID
	}
	if e := checkVersion(fields["jsonrpc"]); e != nil {
		return message{}, e, replyID
	}
	m, e := classify(fields, rawID, hasID)
	if e != nil {
		return message{}, e, replyID
	}
	return m, nil, nil
}

// notObject explains why frame did not decode as a JSON object.
func notObject(frame []byte, err error) *Error {
	if _, ok := errors.AsType[*json.UnmarshalTypeError](err); !ok && err != nil {
		return Errorf(CodeParseError, "parse error: %v", err)
	}
	if bytes.HasPrefix(frame, []byte("[")) {
		return Errorf(CodeInvalidRequest, "invalid request: batches are not supported")
	}
	return Errorf(CodeInvalidRequest, "invalid request: a message must be a JSON object")
}

// checkVersion requires "jsonrpc":"2.0".
func checkVersion(raw json.RawMessage) *Error {
	if raw == nil {
		return Errorf(CodeInvalidRequest, `invalid request: "jsonrpc":"2.0" is missing`)
	}
	var v string
	if json.Unmarshal(raw, &v) != nil || v != "2.0" {
		return Errorf(CodeInvalidRequest, `invalid request: "jsonrpc" must be "2.0", not %s`, clip(string(raw)))
	}
	return nil
}

// classify tells requests, notifications and responses apart and checks
// the fields each needs.
func classify(fields map[string]json.RawMessage, id json.RawMessage, hasID bool) (message, *Error) {
	rawMethod, isCall := fields["method"]
	result, hasResult := fields["result"]
	rawErr, hasErr := fields["error"]
	hasErr = hasErr && !bytes.Equal(rawErr, jsonNull)
	if isCall {
		var method string
		if json.Unmarshal(rawMethod, &method) != nil {
			return message{}, Errorf(CodeInvalidRequest, "invalid request: method must be a string")
		}
		if hasResult || hasErr {
			return message{}, Errorf(CodeInvalidRequest, "invalid request: a message cannot have both a method and a result or error")
		}
		m := message{kind: kindNotification, method: method, params: fields["params"]}
		if hasID {
			m.kind, m.id = kindRequest, id
		}
		return m, nil
	}
	switch {
	case !hasResult && !hasErr:
		return message{}, Errorf(CodeInvalidRequest, "invalid request: a message needs a method, a result or an error")
	case hasResult && hasErr:
		return message{}, Errorf(CodeInvalidRequest, "invalid response: it has both a result and an error")
	case !hasID:
		return message{}, Errorf(CodeInvalidRequest, "invalid response: it has no id")
	}
	m := message{kind: kindResponse, id: id, result: result}
	if hasErr {
		m.result, m.err = nil, peerError(rawErr)
	}
	return m, nil
}

// peerError decodes an error object from the peer. A malformed one still
// fails the call, with -32603 and the object as data.
func peerError(raw json.RawMessage) *Error {
	var e struct {
		Code    *int64          `json:"code"`
		Message *string         `json:"message"`
		Data    json.RawMessage `json:"data"`
	}
	if json.Unmarshal(raw, &e) != nil || e.Code == nil || e.Message == nil {
		return &Error{Code: CodeInternalError, Message: "peer sent a malformed error object", Data: raw}
	}
	out := &Error{Code: *e.Code, Message: *e.Message}
	if e.Data != nil {
		out.Data = e.Data
	}
	return out
}

// validID reports whether raw is a JSON string, an integer or null.
func validID(raw json.RawMessage) bool {
	switch {
	case bytes.Equal(raw, jsonNull):
		return true
	case len(raw) > 0 && raw[0] == '"':
		return true
	}
	return isInteger(raw)
}

// isInteger reports whether raw is a JSON number without fraction or
// exponent. Any length is accepted: the id is echoed, never converted.
func isInteger(raw []byte) bool {
	s := bytes.TrimPrefix(raw, []byte("-"))
	if len(s) == 0 {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// ownID returns the id of a response as one of the ids Call uses, false
// when it cannot be one (null, a string, negative or out of range).
func ownID(raw json.RawMessage) (uint64, bool) {
	n, err := strconv.ParseUint(string(raw), 10, 64)
	return n, err == nil
}

// idKey returns the key under which an incoming request id is tracked, so
// that a "$/cancel_request" naming it matches however its string was
// escaped. Integers and strings never share a key.
func idKey(raw json.RawMessage) string {
	if len(raw) > 0 && raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			b, _ := json.Marshal(s)
			return string(b)
		}
	}
	return string(raw)
}
