package rpc

import (
	"bytes"
	"context"
	"errors"
	"net"
	"sync"
	"testing"
)

// TestRedact checks that Options.Redact rewrites the responses (results
// and errors) and notifications a side sends, but not its requests.
func TestRedact(t *testing.T) {
	t.Parallel()
	redact := func(b []byte) []byte { return bytes.ReplaceAll(b, []byte("SECRET"), []byte("[x]")) }
	server := NewMux(testLogger(t))
	Handle(server, "ask", func(ctx context.Context, c *Conn, p *question) (*answer, error) {
		if err := c.Notify(ctx, "note", question{Q: "note SECRET"}); err != nil {
			return nil, err
		}
		var a answer
		if err := c.Call(ctx, "client/echo", question{Q: "write SECRET"}, &a); err != nil {
			return nil, err
		}
		return &answer{A: "result SECRET"}, nil
	})
	Handle(server, "fail", func(context.Context, *Conn, *question) (*answer, error) {
		return nil, errors.New("failed with SECRET")
	})
	var mu sync.Mutex
	var notes, asked []string
	client := NewMux(testLogger(t))
	Handle(client, "client/echo", func(_ context.Context, _ *Conn, p *question) (*answer, error) {
		mu.Lock()
		defer mu.Unlock()
		asked = append(asked, p.Q)
		return &answer{}, nil
	})
	HandleNotification(client, "note", func(_ context.Context, _ *Conn, p *question) {
		mu.Lock()
		defer mu.Unlock()
		notes = append(notes, p.Q)
	})
	a, b := net.Pipe()
	cc := NewConn(context.Background(), a, client, Options{Logger: testLogger(t)})
	sc := NewConn(context.Background(), b, server, Options{Logger: testLogger(t), Redact: redact})
	t.Cleanup(func() {
		_ = cc.Close()
		_ = sc.Close()
		<-cc.Done()
		<-sc.Done()
	})
	var got answer
	if err := cc.Call(context.Background(), "ask", question{Q: "hi"}, &got); err != nil {
		t.Fatal(err)
	}
	if want := "result [x]"; got.A != want {
		t.Errorf("result = %q, want %q", got.A, want)
	}
	mu.Lock()
	if len(notes) != 1 || notes[0] != "note [x]" {
		t.Errorf("notifications = %q", notes)
	}
	if len(asked) != 1 || asked[0] != "write SECRET" {
		t.Errorf("requests to the client = %q, want them verbatim", asked)
	}
	mu.Unlock()
	err := cc.Call(context.Background(), "fail", question{}, nil)
	if e, ok := errors.AsType[*Error](err); !ok || e.Message != "failed with [x]" {
		t.Errorf("error = %v", err)
	}
}
