package rpc

import (
	"context"
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
		"dir=out kind=notification method=note/out",
		"dir=out kind=request method=client/echo id=1",
		"dir=in kind=response bytes=38 id=1",
		"dir=out kind=response method=ping id=-5 code=0",
		"dir=in kind=invalid bytes=4 id=null code=-32700",
		"dir=out kind=response bytes=",
	} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("trace lacks %q:\n%s", want, logs.String())
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
