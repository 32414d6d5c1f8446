package rpc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"sync"
	"testing"
)

// pair connects two Conns over net.Pipe; cleanup closes both and waits
// until both have shut down.
func pair(t testing.TB, client, server Handler, opts Options) (*Conn, *Conn) {
	t.Helper()
	a, b := net.Pipe()
	if opts.Logger == nil {
		opts.Logger = testLogger(t)
	}
	cc := NewConn(context.Background(), a, client, opts)
	sc := NewConn(context.Background(), b, server, opts)
	t.Cleanup(func() {
		_ = cc.Close()
		_ = sc.Close()
		<-cc.Done()
		<-sc.Done()
	})
	return cc, sc
}

type question struct {
	Q string `json:"q"`
}

type answer struct {
	A string `json:"a"`
}

func TestFullDuplex(t *testing.T) {
	t.Parallel()
	server := NewMux(testLogger(t))
	Handle(server, "ask", func(ctx context.Context, c *Conn, p *question) (*answer, error) {
		var a answer
		if err := c.Call(ctx, "client/think", p, &a); err != nil {
			return nil, err
		}
		return &answer{A: "server heard " + a.A}, nil
	})
	client := NewMux(testLogger(t))
	Handle(client, "client/think", func(_ context.Context, _ *Conn, p *question) (*answer, error) {
		return &answer{A: "client says " + p.Q}, nil
	})
	cc, _ := pair(t, client, server, Options{})

	const n = 20
	var wg sync.WaitGroup
	errs := make([]error, n)
	got := make([]answer, n)
	for i := range n {
		wg.Go(func() {
			errs[i] = cc.Call(context.Background(), "ask", question{Q: strconv.Itoa(i)}, &got[i])
		})
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("call %d: %v", i, errs[i])
		}
		if want := "server heard client says " + strconv.Itoa(i); got[i].A != want {
			t.Errorf("call %d: got %q, want %q", i, got[i].A, want)
		}
	}
}

func TestCallResults(t *testing.T) {
	t.Parallel()
	server := testMux(t)
	Handle(server, "null", func(context.Context, *Conn, *struct{}) (json.RawMessage, error) {
		return json.RawMessage("null"), nil
	})
	cc, _ := pair(t, NewMux(nil), server, Options{})
	ctx := context.Background()

	var sum map[string]int
	if err := cc.Call(ctx, "add", addParams{A: 2, B: 3}, &sum); err != nil || sum["sum"] != 5 {
		t.Errorf("add: got %v, %v", sum, err)
	}
	if err := cc.Call(ctx, "add", addParams{}, nil); err != nil {
		t.Errorf("nil result pointer: %v", err)
	}
	keep := answer{A: "kept"}
	if err := cc.Call(ctx, "nilptr", nil, &keep); err != nil || keep.A != "kept" {
		t.Errorf("empty result: got %v, %v", keep, err)
	}
	var wrongType []int
	if err := cc.Call(ctx, "add", addParams{}, &wrongType); err == nil {
		t.Errorf("decoding an object into []int succeeded")
	}

	err := cc.Call(ctx, "notfound", nil, nil)
	var e *Error
	if !errors.As(err, &e) || e.Code != CodeResourceNotFound || e.Message != "session not found" {
		t.Fatalf("got %v, want *Error -32002", err)
	}
	if data, ok := e.Data.(json.RawMessage); !ok || string(data) != `{"sessionId":"s1"}` {
		t.Errorf("error data: got %#v", e.Data)
	}
	if err := cc.Call(ctx, "nope", nil, nil); !errors.As(err, &e) || e.Code != CodeMethodNotFound {
		t.Errorf("unknown method: got %v", err)
	}
}

func TestCallAfterClose(t *testing.T) {
	t.Parallel()
	cc, _ := pair(t, NewMux(nil), testMux(t), Options{})
	if err := cc.Close(); err != nil {
		t.Fatalf("close: %v", err)
	}
	if err := cc.Close(); err != nil {
		t.Errorf("second close: %v", err)
	}
	<-cc.Done()
	if err := cc.Call(context.Background(), "echo", nil, nil); !errors.Is(err, ErrClosed) {
		t.Errorf("Call after close: got %v, want ErrClosed", err)
	}
	if err := cc.Notify(context.Background(), "x", nil); !errors.Is(err, ErrClosed) {
		t.Errorf("Notify after close: got %v, want ErrClosed", err)
	}
}

func TestCallWithDoneContext(t *testing.T) {
	t.Parallel()
	cc, _ := pair(t, NewMux(nil), testMux(t), Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := cc.Call(ctx, "echo", nil, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("Call: got %v, want context.Canceled", err)
	}
	if err := cc.Notify(ctx, "x", nil); !errors.Is(err, context.Canceled) {
		t.Errorf("Notify: got %v, want context.Canceled", err)
	}
}

// TestNotificationsBeforeResponse checks that the notifications a handler
// sends all reach the peer before its response, for concurrent requests.
func TestNotificationsBeforeResponse(t *testing.T) {
	t.Parallel()
	const requests, perRequest = 8, 50
	m := NewMux(testLogger(t))
	Handle(m, "stream", func(ctx context.Context, c *Conn, p *struct{ N int }) (any, error) {
		for i := range perRequest {
			if err := c.Notify(ctx, "progress", map[string]int{"req": p.N, "i": i}); err != nil {
				return nil, err
			}
		}
		return map[string]int{"req": p.N}, nil
	})
	_, p := serveRaw(t, m, Options{})
	for r := range requests {
		p.sendMsg(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"stream","params":{"N":%d}}`, r, r))
	}
	seen := map[int]int{}
	for answered := 0; answered < requests; {
		var msg struct {
			ID     *int           `json:"id"`
			Method string         `json:"method"`
			Params map[string]int `json:"params"`
		}
		if err := json.Unmarshal(p.next(), &msg); err != nil {
			t.Fatal(err)
		}
		if msg.ID == nil {
			if msg.Params["i"] != seen[msg.Params["req"]] {
				t.Fatalf("request %d: notification %d arrived after %d others", msg.Params["req"], msg.Params["i"], seen[msg.Params["req"]])
			}
			seen[msg.Params["req"]]++
			continue
		}
		if seen[*msg.ID] != perRequest {
			t.Fatalf("response to %d after %d of its %d notifications", *msg.ID, seen[*msg.ID], perRequest)
		}
		answered++
	}
}

// TestNotificationOrderUnderLoad sends many notifications through a small
// queue, interleaved with requests, and checks they are handled in order.
func TestNotificationOrderUnderLoad(t *testing.T) {
	t.Parallel()
	const n = 3000
	var got []int // only the notification goroutine appends
	finished := make(chan struct{})
	server := testMux(t)
	HandleNotification(server, "tick", func(_ context.Context, _ *Conn, p *struct{ N int }) {
		got = append(got, p.N)
		if p.N == n-1 {
			close(finished)
		}
	})
	cc, _ := pair(t, NewMux(nil), server, Options{NotificationQueue: 4})
	ctx := context.Background()
	var wg sync.WaitGroup
	for i := range n {
		if err := cc.Notify(ctx, "tick", struct{ N int }{i}); err != nil {
			t.Fatal(err)
		}
		if i%100 == 0 {
			wg.Go(func() {
				var r map[string]int
				if err := cc.Call(ctx, "add", addParams{A: i, B: 1}, &r); err != nil || r["sum"] != i+1 {
					t.Errorf("add during load: %v %v", r, err)
				}
			})
		}
	}
	<-finished
	wg.Wait()
	if len(got) != n {
		t.Fatalf("handled %d notifications, want %d", len(got), n)
	}
	for i, v := range got {
		if v != i {
			t.Fatalf("notification %d handled in position %d", v, i)
		}
	}
}

// TestNotificationPanic checks that a panicking notification handler does
// not stop the ones after it.
func TestNotificationPanic(t *testing.T) {
	t.Parallel()
	server := testMux(t)
	HandleNotification(server, "bad", func(context.Context, *Conn, *struct{}) { panic("boom") })
	second := make(chan string, 1)
	HandleNotification(server, "good", func(_ context.Context, _ *Conn, p *question) { second <- p.Q })
	bad := 0
	HandleNotification(server, "typed", func(context.Context, *Conn, *addParams) { bad++ })
	_, p := serveRaw(t, server, Options{})
	p.sendMsg(`{"jsonrpc":"2.0","method":"bad"}`)
	p.sendMsg(`{"jsonrpc":"2.0","method":"typed","params":{"a":"not a number"}}`)
	p.sendMsg(`{"jsonrpc":"2.0","method":"good","params":{"q":"still here"}}`)
	if q := <-second; q != "still here" {
		t.Errorf("got %q", q)
	}
	if bad != 0 {
		t.Errorf("handler ran with undecodable params")
	}
}

// blocker is a handler whose "wait" method blocks until its context ends.
type blocker struct {
	*Mux
	started chan string   // receives the request's tag when it starts
	ended   chan error    // receives ctx.Err() when it ends
	release chan struct{} // closing it ends waits without cancellation
}

func newBlocker(t testing.TB) *blocker {
	b := &blocker{Mux: testMux(t), started: make(chan string, 16), ended: make(chan error, 16), release: make(chan struct{})}
	Handle(b.Mux, "wait", func(ctx context.Context, _ *Conn, p *question) (any, error) {
		b.started <- p.Q
		select {
		case <-ctx.Done():
		case <-b.release:
		}
		b.ended <- ctx.Err()
		return nil, ctx.Err()
	})
	return b
}

func TestInboundCancelRequest(t *testing.T) {
	t.Parallel()
	ids := []string{`7`, `-3`, `"req-1"`, `"\u0061b"`, `null`}
	for _, id := range ids {
		t.Run(id, func(t *testing.T) {
			b := newBlocker(t)
			_, p := serveRaw(t, b, Options{})
			p.sendMsg(`{"jsonrpc":"2.0","id":` + id + `,"method":"wait","params":{"q":"x"}}`)
			<-b.started
			cancelID := id
			if id == `"\u0061b"` {
				cancelID = `"ab"` // the same string, escaped differently
			}
			p.sendMsg(`{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":` + cancelID + `}}`)
			p.expect(`{"jsonrpc":"2.0","id":` + id + `,"error":{"code":-32800,"message":"request cancelled: context canceled"}}`)
			if err := <-b.ended; !errors.Is(err, context.Canceled) {
				t.Errorf("handler context: %v", err)
			}
		})
	}
}

// TestCancelRequestNotQueued checks that "$/cancel_request" is acted on
// even while the notification goroutine is busy.
func TestCancelRequestNotQueued(t *testing.T) {
	t.Parallel()
	b := newBlocker(t)
	hold := make(chan struct{})
	HandleNotification(b.Mux, "hold", func(context.Context, *Conn, *struct{}) { <-hold })
	_, p := serveRaw(t, b, Options{})
	defer close(hold)
	p.sendMsg(`{"jsonrpc":"2.0","method":"hold"}`)
	p.sendMsg(`{"jsonrpc":"2.0","id":1,"method":"wait","params":{"q":"x"}}`)
	<-b.started
	p.sendMsg(`{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":1}}`)
	p.expect(`{"jsonrpc":"2.0","id":1,"error":{"code":-32800,"message":"request cancelled: context canceled"}}`)
}

func TestCancelOnlyTheNamedRequest(t *testing.T) {
	t.Parallel()
	b := newBlocker(t)
	_, p := serveRaw(t, b, Options{})
	p.sendMsg(`{"jsonrpc":"2.0","id":1,"method":"wait","params":{"q":"one"}}`)
	p.sendMsg(`{"jsonrpc":"2.0","id":"1","method":"wait","params":{"q":"two"}}`)
	<-b.started
	<-b.started
	p.sendMsg(`{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":"1"}}`)
	p.expect(`{"jsonrpc":"2.0","id":"1","error":{"code":-32800,"message":"request cancelled: context canceled"}}`)
	close(b.release)
	p.expect(`{"jsonrpc":"2.0","id":1,"result":{}}`)
}

func TestOutboundCancelRequest(t *testing.T) {
	t.Parallel()
	c, p := serveRaw(t, testMux(t), Options{})
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- c.Call(ctx, "client/slow", question{Q: "?"}, nil) }()

	req := p.next()
	checkJSON(t, req, `{"jsonrpc":"2.0","id":1,"method":"client/slow","params":{"q":"?"}}`)
	cancel()
	p.expect(`{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":1}}`)
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("Call: got %v, want an error wrapping context.Canceled", err)
	}
	// The late answer is dropped quietly and the connection still serves.
	p.sendMsg(`{"jsonrpc":"2.0","id":1,"error":{"code":-32800,"message":"cancelled"}}`)
	p.sendMsg(afterReq)
	p.expect(afterResp)
}

func TestCloseCancelsRequests(t *testing.T) {
	t.Parallel()
	b := newBlocker(t)
	c, p := serveRaw(t, b, Options{})
	p.sendMsg(`{"jsonrpc":"2.0","id":1,"method":"wait","params":{"q":"x"}}`)
	<-b.started
	if err := p.conn.Close(); err != nil {
		t.Fatal(err)
	}
	if err := <-b.ended; !errors.Is(err, context.Canceled) {
		t.Errorf("handler context after close: %v", err)
	}
	<-c.Done()
}

func TestParentContextClosesConn(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	a, b := net.Pipe()
	defer b.Close()
	c := NewConn(ctx, a, testMux(t), Options{Logger: testLogger(t)})
	cancel()
	<-c.Done()
	if _, err := a.Write([]byte("x")); err == nil {
		t.Errorf("the connection's end of the pipe is still open")
	}
}

// TestEOFShutdown checks that end of input shuts the connection down and
// leaves no goroutine of this package or jsonrpc2 behind.
func TestEOFShutdown(t *testing.T) {
	for _, f := range []Framing{Newline, ContentLength} {
		t.Run(f.String(), func(t *testing.T) {
			pr, pw := io.Pipe()
			out := &lockedBuffer{}
			b := newBlocker(t)
			c := NewConn(context.Background(), readWriteCloser{pr, out}, b, Options{Framing: f, Logger: testLogger(t)})
			body := `{"jsonrpc":"2.0","id":1,"method":"wait","params":{"q":"x"}}`
			if f == Newline {
				_, _ = io.WriteString(pw, body+"\n")
			} else {
				_, _ = io.WriteString(pw, "Content-Length: "+itoa(len(body))+"\r\n\r\n"+body)
			}
			<-b.started
			_ = pw.Close()
			<-c.Done()
			if err := <-b.ended; !errors.Is(err, context.Canceled) {
				t.Errorf("handler context after EOF: %v", err)
			}
			checkNoLeaks(t)
		})
	}
}
