package rpc

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
)

// echoHandler answers every request with its params.
type echoHandler struct{}

func (echoHandler) HandleRequest(_ context.Context, _ *Conn, _ string, params json.RawMessage) (any, error) {
	return params, nil
}

func (echoHandler) HandleNotification(context.Context, *Conn, string, json.RawMessage) {}

// errorCounter is a slog.Handler counting records at Error level or above.
type errorCounter struct{ n atomic.Int64 }

func (*errorCounter) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelError }
func (e *errorCounter) Handle(context.Context, slog.Record) error {
	e.n.Add(1)
	return nil
}
func (e *errorCounter) WithAttrs([]slog.Attr) slog.Handler { return e }
func (e *errorCounter) WithGroup(string) slog.Handler      { return e }

// FuzzReadMessage feeds arbitrary bytes to a Conn in both framings. The
// Conn must not panic or hang, must shut down at the end of input, must log
// no internal error, and must write only well-formed JSON-RPC messages.
func FuzzReadMessage(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"a","params":{}}` + "\n",
		`{"jsonrpc":"2.0","id":-1,"method":"a"}` + "\r\n\n" + `{"jsonrpc":"2.0","id":null,"method":"b"}`,
		`{"jsonrpc":"2.0","id":"x","result":{}}` + "\n[]\n{\n",
		`{"jsonrpc":"2.0","id":3,"error":{"code":"x"}}` + "\n",
		`{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":1}}` + "\n",
		"Content-Length: 38\r\n\r\n" + `{"jsonrpc":"2.0","id":1,"method":"a"}` + "\n",
		"Content-Length: 99999999999\r\n\r\nabc",
		"content-length: 2\n\n{}Content-Length: x\r\n\r\ncontent-length: 1\r\n\r\n1",
		strings.Repeat("x", 300) + "\n{}",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, framing := range []Framing{Newline, ContentLength} {
			out := &lockedBuffer{}
			errs := &errorCounter{}
			rw := readWriteCloser{io.NopCloser(bytes.NewReader(data)), out}
			c := NewConn(context.Background(), rw, echoHandler{}, Options{
				Framing: framing, MaxMessageBytes: 256, NotificationQueue: 2, Logger: slog.New(errs),
			})
			<-c.Done()
			if n := errs.n.Load(); n > 0 {
				t.Fatalf("%v: %d errors logged", framing, n)
			}
			checkOutput(t, framing, out.String())
		}
	})
}

// checkOutput checks that every frame written is a JSON-RPC response with
// "jsonrpc":"2.0" and exactly one of result and error.
func checkOutput(t *testing.T, framing Framing, out string) {
	r := bufio.NewReader(strings.NewReader(out))
	for {
		frame, err := readTestFrame(r, framing)
		if errors.Is(err, io.EOF) {
			return
		}
		if err != nil {
			t.Fatalf("bad framing in output: %v: %q", err, out)
		}
		var msg map[string]json.RawMessage
		if err := json.Unmarshal(frame, &msg); err != nil {
			t.Fatalf("output is not a JSON object: %v: %s", err, frame)
		}
		_, hasResult := msg["result"]
		_, hasError := msg["error"]
		if string(msg["jsonrpc"]) != `"2.0"` || msg["id"] == nil || hasResult == hasError ||
			string(msg["result"]) == "null" || string(msg["error"]) == "null" {
			t.Fatalf("malformed response: %s", frame)
		}
	}
}
