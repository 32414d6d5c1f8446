package mcp

import (
	"context"
	"testing"
	"time"
)

// threeFakes are three working stdio servers.
func threeFakes() []ServerConfig {
	return []ServerConfig{fakeServer("a", "ok"), fakeServer("b", "ok"), fakeServer("c", "ok")}
}

// BenchmarkStart measures what session/new pays: Start with three stdio
// servers returns without waiting for them.
func BenchmarkStart(b *testing.B) {
	for b.Loop() {
		m := NewManager(threeFakes(), Options{StopGrace: 100 * time.Millisecond})
		m.Start(context.Background())
		b.StopTimer()
		_ = m.Close()
		b.StartTimer()
	}
}

// BenchmarkStartWaitReady measures Start and WaitReady until three stdio
// servers (the fake ones: this test binary re-executed) have connected and
// listed their tools.
func BenchmarkStartWaitReady(b *testing.B) {
	for b.Loop() {
		m := NewManager(threeFakes(), Options{StopGrace: 100 * time.Millisecond})
		m.Start(context.Background())
		if !m.WaitReady(context.Background(), 10*time.Second) {
			b.Fatal("not ready")
		}
		b.StopTimer()
		if len(m.Tools()) == 0 {
			b.Fatal("no tools")
		}
		_ = m.Close()
		b.StartTimer()
	}
}
