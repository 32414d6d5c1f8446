package rpc

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
)

type inner struct {
	Line int `json:"line"`
}

type shape struct {
	Name   string   `json:"name"`
	Count  uint32   `json:"count"`
	Ok     bool     `json:"ok"`
	Ratio  float64  `json:"ratio"`
	In     inner    `json:"in"`
	List   []inner  `json:"list"`
	Tags   []string `json:"tags"`
	Strict strict   `json:"strict"`
}

// strict rejects anything but "yes".
type strict struct{}

func (*strict) UnmarshalJSON(b []byte) error {
	if string(b) != `"yes"` {
		return errors.New(`strict must be "yes"`)
	}
	return nil
}

func TestDecodeParams(t *testing.T) {
	tests := []struct {
		params string
		want   string // the -32602 message, or "" for success
	}{
		{``, ""},
		{`null`, ""},
		{`{}`, ""},
		{`{"name":"x","count":3,"unknown":[1,{}]}`, ""},
		{`{"name":3}`, `invalid params: field "name" must be a string, not a number`},
		{`{"count":-1}`, `invalid params: field "count" must be a non-negative integer, not the number -1`},
		{`{"count":"3"}`, `invalid params: field "count" must be a non-negative integer, not a string`},
		{`{"ok":"true"}`, `invalid params: field "ok" must be a boolean, not a string`},
		{`{"ratio":true}`, `invalid params: field "ratio" must be a number, not a boolean`},
		{`{"in":{"line":"3"}}`, `invalid params: field "in.line" must be an integer, not a string`},
		{`{"in":[]}`, `invalid params: field "in" must be an object, not an array`},
		{`{"list":{}}`, `invalid params: field "list" must be an array, not an object`},
		{`{"tags":[1]}`, `invalid params: field "tags" must be a string, not a number`},
		{`"hello"`, `invalid params: params must be an object, not a string`},
		{`[1]`, `invalid params: params must be an object, not an array`},
		{`{"strict":"no"}`, `invalid params: strict must be "yes"`},
	}
	for _, tt := range tests {
		t.Run(tt.params, func(t *testing.T) {
			var p shape
			err := decodeParams(json.RawMessage(tt.params), &p)
			if tt.want == "" {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			e, ok := errors.AsType[*Error](err)
			if !ok || e.Code != CodeInvalidParams || e.Message != tt.want {
				t.Errorf("got %v\nwant -32602 %q", err, tt.want)
			}
		})
	}
}

func TestMuxFallbacks(t *testing.T) {
	m := NewMux(nil)
	ctx := context.Background()
	if _, err := m.HandleRequest(ctx, nil, "x/y", nil); ToWire(err).Code != CodeMethodNotFound {
		t.Errorf("no fallback: got %v", err)
	}
	m.HandleNotification(ctx, nil, "x/y", nil) // ignored, must not panic

	m.Fallback(func(_ context.Context, _ *Conn, method string, params json.RawMessage) (any, error) {
		return method + string(params), nil
	})
	var noted string
	m.FallbackNotification(func(_ context.Context, _ *Conn, method string, params json.RawMessage) {
		noted = method + string(params)
	})
	if got, err := m.HandleRequest(ctx, nil, "x/y", json.RawMessage(`[1]`)); err != nil || got != "x/y[1]" {
		t.Errorf("request fallback: got %v, %v", got, err)
	}
	m.HandleNotification(ctx, nil, "n/z", json.RawMessage(`{}`))
	if noted != "n/z{}" {
		t.Errorf("notification fallback: got %q", noted)
	}

	Handle(m, "x/y", func(context.Context, *Conn, *struct{}) (string, error) { return "registered", nil })
	if got, _ := m.HandleRequest(ctx, nil, "x/y", nil); got != "registered" {
		t.Errorf("registered handler not preferred over the fallback: %v", got)
	}
}

func TestToWire(t *testing.T) {
	own := Errorf(CodeAuthRequired, "log in %s", "first")
	var nilErr *Error
	tests := []struct {
		name string
		err  error
		code int64
		msg  string
	}{
		{"own", own, CodeAuthRequired, "log in first"},
		{"wrapped own", errors.Join(errors.New("x"), own), CodeAuthRequired, "log in first"},
		{"cancelled", context.Canceled, CodeRequestCancelled, "request cancelled: context canceled"},
		{"deadline", context.DeadlineExceeded, CodeRequestCancelled, "request cancelled: context deadline exceeded"},
		{"plain", errors.New("disk on fire"), CodeInternalError, "disk on fire"},
		{"typed nil", nilErr, CodeInternalError, "handler returned a nil *rpc.Error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ToWire(tt.err)
			if got == nil || got.Code != tt.code || got.Message != tt.msg {
				t.Errorf("got %+v, want %d %q", got, tt.code, tt.msg)
			}
		})
	}
	if ToWire(nil) != nil {
		t.Error("ToWire(nil) is not nil")
	}
	if got := own.Error(); got != "rpc error -32000: log in first" {
		t.Errorf("Error() = %q", got)
	}
}
