package rpc

import (
	"bufio"
	"context"
	"io"
	"sync/atomic"
	"testing"
	"time"
)

// pipeRWC joins the two ends a test needs into one ReadWriteCloser.
type pipeRWC struct {
	io.Reader
	io.WriteCloser
}

// TestEndOfInputDrains checks that requests in flight when the input ends
// are cancelled and still answered before the output closes.
func TestEndOfInputDrains(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	m := NewMux(discardLogger())
	Handle(m, "wait", func(ctx context.Context, _ *Conn, _ *struct{}) (map[string]string, error) {
		<-ctx.Done()
		return map[string]string{"ended": "cancelled"}, nil
	})
	c := NewConn(context.Background(), pipeRWC{inR, outW}, m, Options{DrainTimeout: 10 * time.Second})
	go func() {
		io.WriteString(inW, `{"jsonrpc":"2.0","id":7,"method":"wait"}`+"\n")
		inW.Close()
	}()
	r := bufio.NewReader(outR)
	line, err := readTestFrame(r, Newline)
	if err != nil {
		t.Fatalf("no answer after end of input: %v", err)
	}
	checkJSON(t, line, `{"jsonrpc":"2.0","id":7,"result":{"ended":"cancelled"}}`)
	if _, err := readTestFrame(r, Newline); err == nil {
		t.Error("output still open after the drain")
	}
	<-c.Done()
}

// TestInlineMethodsRunInOrder checks that a request named in
// Options.Inline is finished before the next message is read.
func TestInlineMethodsRunInOrder(t *testing.T) {
	var ready atomic.Bool
	m := NewMux(discardLogger())
	Handle(m, "init", func(context.Context, *Conn, *struct{}) (any, error) {
		time.Sleep(20 * time.Millisecond) // widen the window a goroutine would lose
		ready.Store(true)
		return nil, nil
	})
	Handle(m, "check", func(context.Context, *Conn, *struct{}) (map[string]bool, error) {
		return map[string]bool{"ready": ready.Load()}, nil
	})
	_, p := serveRaw(t, m, Options{Inline: []string{"init"}})
	p.send(`{"jsonrpc":"2.0","id":1,"method":"init"}` + "\n" + `{"jsonrpc":"2.0","id":2,"method":"check"}` + "\n")
	p.expect(`{"jsonrpc":"2.0","id":1,"result":{}}`)
	p.expect(`{"jsonrpc":"2.0","id":2,"result":{"ready":true}}`)
}

// TestInlineNotificationBeforeRequest checks that a notification named in
// Options.Inline takes effect before a request sent after it is served.
func TestInlineNotificationBeforeRequest(t *testing.T) {
	var set atomic.Bool
	m := NewMux(discardLogger())
	HandleNotification(m, "set", func(context.Context, *Conn, *struct{}) {
		time.Sleep(20 * time.Millisecond)
		set.Store(true)
	})
	Handle(m, "get", func(context.Context, *Conn, *struct{}) (map[string]bool, error) {
		return map[string]bool{"set": set.Load()}, nil
	})
	_, p := serveRaw(t, m, Options{Inline: []string{"set"}})
	p.send(`{"jsonrpc":"2.0","method":"set"}` + "\n" + `{"jsonrpc":"2.0","id":1,"method":"get"}` + "\n")
	p.expect(`{"jsonrpc":"2.0","id":1,"result":{"set":true}}`)
}
