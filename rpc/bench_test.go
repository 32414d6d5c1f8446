package rpc

import (
	"context"
	"testing"
)

// BenchmarkCallRoundTrip measures one request and its response between two
// Conns over net.Pipe.
func BenchmarkCallRoundTrip(b *testing.B) {
	server := NewMux(nil)
	Handle(server, "add", func(_ context.Context, _ *Conn, p *addParams) (map[string]int, error) {
		return map[string]int{"sum": p.A + p.B}, nil
	})
	cc, _ := pair(b, NewMux(nil), server, Options{Logger: discardLogger()})
	ctx := context.Background()
	var r map[string]int
	b.ReportAllocs()
	for b.Loop() {
		if err := cc.Call(ctx, "add", addParams{A: 1, B: 2}, &r); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkNotify measures Notify throughput, until the peer has handled
// every notification.
func BenchmarkNotify(b *testing.B) {
	type update struct {
		SessionID string `json:"sessionId"`
		Text      string `json:"text"`
	}
	server := NewMux(nil)
	handled := 0 // only the notification goroutine touches it
	HandleNotification(server, "session/update", func(context.Context, *Conn, *update) { handled++ })
	done := make(chan int)
	HandleNotification(server, "bench/done", func(context.Context, *Conn, *struct{}) { done <- handled })
	cc, _ := pair(b, NewMux(nil), server, Options{Logger: discardLogger()})
	ctx := context.Background()
	msg := update{SessionID: "sess-1", Text: "a streamed chunk of model output"}
	sent := 0
	b.ReportAllocs()
	for b.Loop() {
		if err := cc.Notify(ctx, "session/update", msg); err != nil {
			b.Fatal(err)
		}
		sent++
	}
	// Notifications are handled in order, so this one comes after the rest.
	if err := cc.Notify(ctx, "bench/done", nil); err != nil {
		b.Fatal(err)
	}
	if got := <-done; got != sent {
		b.Fatalf("handled %d of %d notifications", got, sent)
	}
}
