package rpc

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"testing"
)

// TestDebugTrace checks that every message in both directions is logged at
// Debug level with its direction, kind, method and id.
func TestDebugTrace(t *testing.T) {
	logs := &lockedBuffer{}
	log := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	m := testMux(t)
	Handle(m, "ping", func(ctx context.Context, c *Conn, _ *struct{}) (any, error) {
		if err := c.Notify(ctx, "note/out", nil); err != nil {
			return nil, err
		}
		return nil, c.Call(ctx, "client/echo", nil, nil)
	})
	c, p := serveRaw(t, m, Options{Logger: log})
	p.sendMsg(`{"jsonrpc":"2.0","method":"note/in"}`)
	p.sendMsg(`{"jsonrpc":"2.0","id":-5,"method":"ping"}`)
	p.expect(`{"jsonrpc":"2.0","method":"note/out"}`)
	p.expect(`{"jsonrpc":"2.0","id":1,"method":"client/echo"}`)
	p.sendMsg(`{"jsonrpc":"2.0","id":1,"result":null}`)
	p.expect(`{"jsonrpc":"2.0","id":-5,"result":{}}`)
	p.sendMsg(`oops`)
	p.expect(`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: *"}}`)
	_ = p.conn.Close()
	<-c.Done()

	for _, want := range []string{
		"dir=in kind=notification bytes=36 method=note/in",
		"dir=in kind=request bytes=41 method=ping id=-5",
		"dir=out kind=notification bytes=37 method=note/out",
		"dir=out kind=request bytes=47 method=client/echo id=1",
		"dir=in kind=response bytes=38 id=1",
		"dir=out kind=response bytes=37 method=ping id=-5 code=0",
		"dir=in kind=invalid bytes=4 id=null code=-32700",
		"dir=out kind=response bytes=",
	} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("trace lacks %q:\n%s", want, logs.String())
		}
	}
}

// TestDebugTraceKeepsBodiesOut checks that the debug log of an exchange
// whose every message carries a key names each message (direction, kind,
// method, id, exact size) and never holds the key, in either direction,
// in results, errors, notifications and our own requests.
func TestDebugTraceKeepsBodiesOut(t *testing.T) {
	const key = "AIzaMARKED-api-key-0123456789"
	logs := &lockedBuffer{}
	log := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	m := testMux(t)
	Handle(m, "auth", func(ctx context.Context, c *Conn, p *map[string]string) (any, error) {
		if err := c.Notify(ctx, "note/key", map[string]string{"key": key}); err != nil {
			return nil, err
		}
		if err := c.Call(ctx, "client/store", map[string]string{"key": key}, nil); err != nil {
			return nil, err
		}
		return map[string]string{"echo": (*p)["key"]}, nil
	})
	Handle(m, "fail", func(context.Context, *Conn, *struct{}) (any, error) {
		return nil, Errorf(CodeInvalidParams, "bad key %s", key)
	})
	c, p := serveRaw(t, m, Options{Logger: log})
	auth := `{"jsonrpc":"2.0","id":7,"method":"auth","params":{"key":"` + key + `"}}`
	p.sendMsg(auth)
	note := `{"jsonrpc":"2.0","method":"note/key","params":{"key":"` + key + `"}}`
	p.expect(note)
	call := `{"jsonrpc":"2.0","id":1,"method":"client/store","params":{"key":"` + key + `"}}`
	p.expect(call)
	reply := `{"jsonrpc":"2.0","id":1,"result":{"stored":"` + key + `"}}`
	p.sendMsg(reply)
	result := `{"jsonrpc":"2.0","id":7,"result":{"echo":"` + key + `"}}`
	p.expect(result)
	p.sendMsg(`{"jsonrpc":"2.0","id":"f","method":"fail"}`)
	failed := p.next()
	_ = p.conn.Close()
	<-c.Done()

	got := logs.String()
	if strings.Contains(got, key) || strings.Contains(got, "AIzaMARKED") {
		t.Fatalf("the debug log holds the key:\n%s", got)
	}
	for _, want := range []string{
		fmt.Sprintf("dir=in kind=request bytes=%d method=auth id=7", len(auth)),
		fmt.Sprintf("dir=out kind=notification bytes=%d method=note/key", len(note)),
		fmt.Sprintf("dir=out kind=request bytes=%d method=client/store id=1", len(call)),
		fmt.Sprintf("dir=in kind=response bytes=%d id=1", len(reply)),
		fmt.Sprintf("dir=out kind=response bytes=%d method=auth id=7 code=0", len(result)),
		fmt.Sprintf("dir=out kind=response bytes=%d method=fail id=\"\\\"f\\\"\" code=%d", len(failed), CodeInvalidParams),
	} {
		if !strings.Contains(got, want) {
			t.Errorf("debug log lacks %q:\n%s", want, got)
		}
	}
}

// TestNothingOnStdout runs every kind of exchange, panics included, and
// checks that the package wrote nothing to os.Stdout. It swaps os.Stdout, so
// it must not run in parallel.
func TestNothingOnStdout(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	saved := os.Stdout
	os.Stdout = w
	defer func() { os.Stdout = saved }()

	_, p := serveRaw(t, testMux(t), Options{Logger: nil})
	for _, msg := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"panic"}`, `{`, `[]`,
		`{"jsonrpc":"2.0","id":2,"method":"nope"}`, `{"jsonrpc":"2.0","id":9,"result":{}}`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":1,"message":"x"}}`,
	} {
		p.sendMsg(msg)
	}
	for range 4 {
		p.next()
	}
	p.sendMsg(afterReq)
	p.expect(afterResp)

	os.Stdout = saved
	_ = w.Close()
	if out, _ := io.ReadAll(r); len(out) > 0 {
		t.Errorf("wrote to stdout: %q", out)
	}
}
