package rpc

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"reflect"
	"strings"
	"sync"
)

// RequestFunc serves a request with raw params; Mux.Fallback takes one.
type RequestFunc func(ctx context.Context, c *Conn, method string, params json.RawMessage) (any, error)

// NotificationFunc serves a notification with raw params;
// Mux.FallbackNotification takes one.
type NotificationFunc func(ctx context.Context, c *Conn, method string, params json.RawMessage)

// Mux is a Handler that routes by method name to functions with typed
// params, registered with Handle and HandleNotification. Unknown requests
// get -32601 and unknown notifications are ignored unless a fallback is set.
type Mux struct {
	log *slog.Logger

	// mu guards the maps and fallbacks, so registering late is safe.
	mu            sync.RWMutex
	requests      map[string]func(context.Context, *Conn, json.RawMessage) (any, error)
	notifications map[string]func(context.Context, *Conn, json.RawMessage)
	fallback      RequestFunc
	noteFallback  NotificationFunc
}

// NewMux returns an empty Mux logging to log (nil discards).
func NewMux(log *slog.Logger) *Mux {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Mux{
		log:           log,
		requests:      map[string]func(context.Context, *Conn, json.RawMessage) (any, error){},
		notifications: map[string]func(context.Context, *Conn, json.RawMessage){},
	}
}

// Handle registers fn for requests named method. Params decode into P
// (missing or null params give the zero P); a decode failure is answered
// with -32602 naming what was wrong, without calling fn.
func Handle[P any, R any](m *Mux, method string, fn func(ctx context.Context, c *Conn, p *P) (R, error)) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.requests[method] = func(ctx context.Context, c *Conn, raw json.RawMessage) (any, error) {
		p := new(P)
		if err := decodeParams(raw, p); err != nil {
			return nil, err
		}
		return fn(ctx, c, p)
	}
}

// HandleNotification registers fn for notifications named method. Params
// that do not decode into P are logged and the notification dropped.
func HandleNotification[P any](m *Mux, method string, fn func(ctx context.Context, c *Conn, p *P)) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.notifications[method] = func(ctx context.Context, c *Conn, raw json.RawMessage) {
		p := new(P)
		if err := decodeParams(raw, p); err != nil {
			m.log.Warn("rpc: dropping notification with bad params", "method", method, "err", err)
			return
		}
		fn(ctx, c, p)
	}
}

// Fallback sets the function serving requests for unregistered methods.
func (m *Mux) Fallback(fn RequestFunc) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.fallback = fn
}

// FallbackNotification sets the function serving unregistered notifications.
func (m *Mux) FallbackNotification(fn NotificationFunc) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.noteFallback = fn
}

// HandleRequest implements Handler.
func (m *Mux) HandleRequest(ctx context.Context, c *Conn, method string, params json.RawMessage) (any, error) {
	m.mu.RLock()
	fn, fallback := m.requests[method], m.fallback
	m.mu.RUnlock()
	switch {
	case fn != nil:
		return fn(ctx, c, params)
	case fallback != nil:
		return fallback(ctx, c, method, params)
	}
	return nil, Errorf(CodeMethodNotFound, "method %q not found", method)
}

// HandleNotification implements Handler.
func (m *Mux) HandleNotification(ctx context.Context, c *Conn, method string, params json.RawMessage) {
	m.mu.RLock()
	fn, fallback := m.notifications[method], m.noteFallback
	m.mu.RUnlock()
	switch {
	case fn != nil:
		fn(ctx, c, params)
	case fallback != nil:
		fallback(ctx, c, method, params)
	default:
		m.log.Debug("rpc: ignoring unknown notification", "method", method)
	}
}

// decodeParams decodes raw into p, leaving p zero for missing or null
// params. Its error is an *Error with code -32602.
func decodeParams(raw json.RawMessage, p any) error {
	if len(raw) == 0 || bytes.Equal(raw, jsonNull) {
		return nil
	}
	if err := json.Unmarshal(raw, p); err != nil {
		return &Error{Code: CodeInvalidParams, Message: describeParamsError(err)}
	}
	return nil
}

// describeParamsError says in one sentence why params did not decode.
func describeParamsError(err error) string {
	te, ok := errors.AsType[*json.UnmarshalTypeError](err)
	if !ok {
		return "invalid params: " + err.Error()
	}
	where := "params"
	if te.Field != "" {
		where = fmt.Sprintf("field %q", te.Field)
	}
	return fmt.Sprintf("invalid params: %s must be %s, not %s", where, jsonKind(te.Type), describeValue(te.Value))
}

// jsonKind names the JSON value a Go type decodes from.
func jsonKind(t reflect.Type) string {
	if t == nil {
		return "a valid value"
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "an integer"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return "a non-negative integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	}
	return "a " + t.String()
}

// describeValue turns encoding/json's description of a JSON value ("string",
// "number -1") into words.
func describeValue(v string) string {
	if n, ok := strings.CutPrefix(v, "number "); ok {
		return "the number " + n
	}
	switch v {
	case "object", "array":
		return "an " + v
	case "string", "number":
		return "a " + v
	case "bool":
		return "a boolean"
	}
	return v
}
