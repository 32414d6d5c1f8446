package host

import (
	"bufio"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"companion/agent/model"
	"companion/config"
)

// trap is a listener that counts the connections made to it.
func trap(t *testing.T) (string, *atomic.Int32) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var n atomic.Int32
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			n.Add(1)
			c.Close()
		}
	}()
	t.Cleanup(func() { ln.Close(); <-done })
	return ln.Addr().String(), &n
}

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
	addr, dialled := trap(t)
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
	if n := dialled.Load(); n != 0 {
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
	if dialled.Load() == 0 {
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
