package telemetry_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"companion/agent"
	"companion/telemetry"
)

// TestTelemetryShutdownBounded: a collector that never answers does not
// hold Shutdown past its bound (the guard below is ten times the bound;
// it only turns a hang into a failure).
func TestTelemetryShutdownBounded(t *testing.T) {
	release := make(chan struct{})
	var once sync.Once
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(func() { once.Do(func() { close(release) }); srv.Close() })
	p, err := telemetry.New(t.Context(), telemetry.Options{Endpoint: srv.URL, Protocol: "http", SessionID: "s"})
	if err != nil {
		t.Fatal(err)
	}
	_, end := p.StartTurn(t.Context(), agent.TurnStart{SessionID: "s", Prompt: "hi"})
	end(agent.TurnEnd{Stop: agent.EndTurn})
	done := make(chan error, 1)
	go func() { done <- p.Shutdown(context.Background()) }()
	select {
	case err := <-done:
		if err == nil {
			t.Error("Shutdown reported no error although nothing was delivered")
		}
	case <-time.After(10 * telemetry.ShutdownTimeout):
		t.Fatal("Shutdown hung on a collector that never answers")
	}
}
