package host

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"companion/agent/model"
	"companion/config"

	"companion/internal/testkit/testio"
)

// promptOnce opens a session in cwd, runs one prompt and drops it (which
// flushes its telemetry).
func promptOnce(t *testing.T, h *Host, cwd string) {
	t.Helper()
	s, err := h.New(t.Context(), Request{Cwd: cwd}, ports(nil))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Agent.Prompt(t.Context(), []model.Part{{Text: "hello"}}); err != nil {
		t.Fatal(err)
	}
	h.Drop(s)
}

// TestTelemetryOffNoConnection: with telemetry off, nothing dials the
// configured collector, not even when the project's settings (in a
// trusted folder) turn telemetry on and point it there.
func TestTelemetryOffNoConnection(t *testing.T) {
	trap := testio.Listen(t, false)
	addr := trap.Addr
	for _, proto := range []string{"http", "grpc"} {
		h := newTestHost(t)
		cfg := h.Config()
		off := false
		cfg.Telemetry = config.Telemetry{Enabled: &off, OTLPEndpoint: "http://" + addr, OTLPProtocol: proto}
		h.SetConfig(cfg)
		cwd, _ := filepath.EvalSymlinks(t.TempDir())
		project := `{"telemetry":{"enabled":true,"otlpEndpoint":"http://` + addr + `","otlpProtocol":"` + proto + `"}}`
		if err := os.MkdirAll(filepath.Join(cwd, ".companion"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(config.ProjectSettingsPath(cwd), []byte(project), 0o600); err != nil {
			t.Fatal(err)
		}
		promptOnce(t, h, cwd)
		h.Close()
	}
	if n := trap.Accepted(); n != 0 {
		t.Fatalf("telemetry off, yet the collector was dialled %d times", n)
	}
	// The control: the same settings with telemetry on do dial it.
	h := newTestHost(t)
	cfg := h.Config()
	on := true
	cfg.Telemetry = config.Telemetry{Enabled: &on, OTLPEndpoint: "http://" + addr, OTLPProtocol: "http"}
	h.SetConfig(cfg)
	cwd, _ := filepath.EvalSymlinks(t.TempDir())
	promptOnce(t, h, cwd)
	if trap.Accepted() == 0 {
		t.Fatal("telemetry on, yet the collector was never dialled: the trap proves nothing")
	}
}

// TestTelemetryOutfile: enabled with an outfile, a session's spans,
// metrics and logs land in the file, one JSON object a line.
func TestTelemetryOutfile(t *testing.T) {
	h := newTestHost(t)
	out := filepath.Join(t.TempDir(), "telemetry.jsonl")
	on := true
	cfg := h.Config()
	cfg.Telemetry = config.Telemetry{Enabled: &on, Outfile: out}
	h.SetConfig(cfg)
	cwd, _ := filepath.EvalSymlinks(t.TempDir())
	promptOnce(t, h, cwd)
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var all strings.Builder
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	lines := 0
	for sc.Scan() {
		var v map[string]any
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatalf("line %d is not one JSON object: %v", lines+1, err)
		}
		lines++
		all.Write(sc.Bytes())
	}
	for _, want := range []string{`"companion.turn"`, `"companion.model.request"`, `"companion.turn.count"`, `companion.session.start`} {
		if !strings.Contains(all.String(), want) {
			t.Errorf("the outfile has no %s", want)
		}
	}
	if lines < 3 {
		t.Errorf("%d lines, want spans, metrics and logs", lines)
	}
}

// shutdownLog records the Shutdown calls of the spies sharing it.
type shutdownLog struct {
	want int
	all  chan struct{} // closed once want calls have started
	mu   sync.Mutex
	// deadlines are the deadlines the calls got (zero: none).
	deadlines []time.Time
	// alone counts calls whose deadline passed before all want had
	// started: they ran one after another, not side by side.
	alone int
}

func newShutdownLog(want int) *shutdownLog {
	return &shutdownLog{want: want, all: make(chan struct{})}
}

// shutdownSpy stands in for a session's telemetry: its Shutdown records
// the call, waits for the others to start (or for its deadline), then
// shuts the real provider down.
type shutdownSpy struct {
	telemetrySink
	log *shutdownLog
}

func (s shutdownSpy) Shutdown(ctx context.Context) error {
	l := s.log
	d, _ := ctx.Deadline()
	l.mu.Lock()
	l.deadlines = append(l.deadlines, d)
	if len(l.deadlines) == l.want {
		close(l.all)
	}
	l.mu.Unlock()
	select {
	case <-l.all:
	case <-ctx.Done():
		l.mu.Lock()
		l.alone++
		l.mu.Unlock()
	}
	return s.telemetrySink.Shutdown(ctx)
}

// TestTelemetryCloseOneBudget: with a collector that never answers,
// closing the host shuts the telemetry of its three open sessions down
// side by side under one deadline (each Shutdown is called once, all
// are running before any deadline passes, and all got the same
// deadline), so companion's exit waits one telemetry.ShutdownTimeout,
// not one per session. A session dropped on its own gets a bounded
// shutdown too.
func TestTelemetryCloseOneBudget(t *testing.T) {
	addr := testio.Listen(t, true).Addr
	h := newTestHost(t)
	on := true
	cfg := h.Config()
	cfg.Telemetry = config.Telemetry{Enabled: &on, OTLPEndpoint: "http://" + addr, OTLPProtocol: "grpc"}
	h.SetConfig(cfg)
	cwd, _ := filepath.EvalSymlinks(t.TempDir())
	closing, dropping := newShutdownLog(3), newShutdownLog(1)
	open := func(l *shutdownLog) *Session {
		s, err := h.New(t.Context(), Request{Cwd: cwd}, ports(nil))
		if err != nil {
			t.Fatal(err)
		}
		if s.tel == nil {
			t.Fatal("telemetry is on, yet the session has none")
		}
		if _, err := s.Agent.Prompt(t.Context(), []model.Part{{Text: "hello"}}); err != nil {
			t.Fatal(err)
		}
		s.tel.p = shutdownSpy{telemetrySink: s.tel.p, log: l}
		return s
	}
	h.Drop(open(dropping))
	if len(dropping.deadlines) != 1 || dropping.deadlines[0].IsZero() {
		t.Fatalf("a dropped session's telemetry shut down with deadlines %v, want one", dropping.deadlines)
	}
	for range 3 {
		open(closing)
	}
	h.Close()
	if len(closing.deadlines) != 3 {
		t.Fatalf("Close shut down %d sessions' telemetry, want 3", len(closing.deadlines))
	}
	if closing.alone != 0 {
		t.Errorf("%d shutdowns reached their deadline before the others started: they ran one after another", closing.alone)
	}
	for _, d := range closing.deadlines {
		if d.IsZero() || !d.Equal(closing.deadlines[0]) {
			t.Errorf("deadlines %v: want one shared deadline", closing.deadlines)
			break
		}
	}
}
