package rpc

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// testLogger returns a logger that writes into the test log, so a failing
// test shows the connection's debug trace.
func testLogger(t testing.TB) *slog.Logger {
	return slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

type testWriter struct{ t testing.TB }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

// rawPeer plays the other side of a Conn with raw bytes.
type rawPeer struct {
	t       testing.TB
	conn    net.Conn
	framing Framing
	in      chan []byte // frames read from the Conn; closed at end of input
}

// serveRaw starts a Conn serving h and returns it with a raw peer. Cleanup
// closes the peer and waits until the Conn is fully shut down.
func serveRaw(t testing.TB, h Handler, opts Options) (*Conn, *rawPeer) {
	t.Helper()
	a, b := net.Pipe()
	if opts.Logger == nil {
		opts.Logger = testLogger(t)
	}
	c := NewConn(context.Background(), a, h, opts)
	p := &rawPeer{t: t, conn: b, framing: opts.Framing, in: make(chan []byte, 4096)}
	go p.readLoop()
	t.Cleanup(func() {
		_ = b.Close()
		<-c.Done()
	})
	return c, p
}

func (p *rawPeer) readLoop() {
	defer close(p.in)
	r := bufio.NewReader(p.conn)
	for {
		frame, err := readTestFrame(r, p.framing)
		if err != nil {
			return
		}
		p.in <- frame
	}
}

// readTestFrame reads one frame the way a peer would, independently of the
// package's readers.
func readTestFrame(r *bufio.Reader, f Framing) ([]byte, error) {
	if f == Newline {
		line, err := r.ReadBytes('\n')
		if err != nil {
			return nil, err
		}
		if bytes.Count(line, []byte("\n")) != 1 {
			return nil, errors.New("frame has an embedded newline")
		}
		return line[:len(line)-1], nil
	}
	n := -1
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return nil, err
		}
		if line == "\r\n" {
			break
		}
		v, ok := strings.CutPrefix(line, "Content-Length: ")
		if !ok {
			return nil, fmt.Errorf("unexpected header %q", line)
		}
		if n, err = strconv.Atoi(strings.TrimSuffix(v, "\r\n")); err != nil {
			return nil, err
		}
	}
	body := make([]byte, n)
	_, err := io.ReadFull(r, body)
	return body, err
}

// send writes raw bytes to the Conn.
func (p *rawPeer) send(s string) {
	p.t.Helper()
	if _, err := io.WriteString(p.conn, s); err != nil {
		p.t.Fatalf("write to conn: %v", err)
	}
}

// sendMsg writes one message framed for the peer's framing.
func (p *rawPeer) sendMsg(body string) {
	p.t.Helper()
	if p.framing == Newline {
		p.send(body + "\n")
		return
	}
	p.send(fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body))
}

// next returns the next frame the Conn wrote, failing if it closed.
func (p *rawPeer) next() []byte {
	p.t.Helper()
	frame, ok := <-p.in
	if !ok {
		p.t.Fatal("connection closed while waiting for a message")
	}
	return frame
}

// expect reads the next frame and checks it against want (see matchJSON).
func (p *rawPeer) expect(want string) {
	p.t.Helper()
	got := p.next()
	checkJSON(p.t, got, want)
}

// checkJSON fails unless got is a JSON-RPC message with "jsonrpc":"2.0"
// matching want.
func checkJSON(t testing.TB, got []byte, want string) {
	t.Helper()
	g, err := decodeNumbers(got)
	if err != nil {
		t.Fatalf("message is not JSON: %v: %s", err, got)
	}
	if obj, ok := g.(map[string]any); !ok || obj["jsonrpc"] != "2.0" {
		t.Fatalf("message lacks \"jsonrpc\":\"2.0\": %s", got)
	}
	w, err := decodeNumbers([]byte(want))
	if err != nil {
		t.Fatalf("bad want %q: %v", want, err)
	}
	if !matchJSON(w, g) {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

func decodeNumbers(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	err := d.Decode(&v)
	return v, err
}

// matchJSON compares decoded JSON values exactly (numbers by their text),
// except that a wanted string ending in "*" matches any string with that
// prefix.
func matchJSON(want, got any) bool {
	switch w := want.(type) {
	case string:
		g, ok := got.(string)
		if p, wild := strings.CutSuffix(w, "*"); wild && ok {
			return strings.HasPrefix(g, p)
		}
		return ok && g == w
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok || len(g) != len(w) {
			return false
		}
		for k, wv := range w {
			gv, ok := g[k]
			if !ok || !matchJSON(wv, gv) {
				return false
			}
		}
		return true
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return false
		}
		for i := range w {
			if !matchJSON(w[i], g[i]) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(want, got)
}

// rawField returns the exact bytes of one top-level field of a message.
func rawField(t testing.TB, msg []byte, name string) string {
	t.Helper()
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(msg, &fields); err != nil {
		t.Fatalf("message is not a JSON object: %v: %s", err, msg)
	}
	return string(fields[name])
}

// addParams is the params type of the test "add" method.
type addParams struct {
	A int `json:"a"`
	B int `json:"b"`
}

// testMux returns the Mux used by transcript tests.
func testMux(t testing.TB) *Mux {
	m := NewMux(testLogger(t))
	Handle(m, "echo", func(_ context.Context, _ *Conn, p *json.RawMessage) (json.RawMessage, error) {
		return *p, nil
	})
	Handle(m, "add", func(_ context.Context, _ *Conn, p *addParams) (map[string]int, error) {
		return map[string]int{"sum": p.A + p.B}, nil
	})
	Handle(m, "nilptr", func(context.Context, *Conn, *struct{}) (*addParams, error) { return nil, nil })
	Handle(m, "nilmap", func(context.Context, *Conn, *struct{}) (map[string]int, error) { return nil, nil })
	Handle(m, "nilslice", func(context.Context, *Conn, *struct{}) ([]int, error) { return nil, nil })
	Handle(m, "panic", func(context.Context, *Conn, *struct{}) (any, error) { panic("boom") })
	Handle(m, "notfound", func(context.Context, *Conn, *struct{}) (any, error) {
		return nil, &Error{Code: CodeResourceNotFound, Message: "session not found", Data: map[string]string{"sessionId": "s1"}}
	})
	Handle(m, "wrapped", func(context.Context, *Conn, *struct{}) (any, error) {
		return nil, fmt.Errorf("loading: %w", Errorf(CodeAuthRequired, "log in first"))
	})
	Handle(m, "plainerr", func(context.Context, *Conn, *struct{}) (any, error) {
		return nil, errors.New("disk on fire")
	})
	Handle(m, "cancelled", func(context.Context, *Conn, *struct{}) (any, error) {
		return nil, fmt.Errorf("model: %w", context.Canceled)
	})
	return m
}

func itoa(n int) string { return strconv.Itoa(n) }

// discardLogger returns a logger that drops everything.
func discardLogger() *slog.Logger { return slog.New(slog.DiscardHandler) }
