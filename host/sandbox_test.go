package host

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"companion/agent"
	"companion/agent/model"
	"companion/config"
	"companion/tools"
	"companion/tools/mcp"
	"companion/tools/sandbox"
)

// TestSandboxServers: in a sandboxed mode every stdio server gets the
// sandbox, a user's or client's server may opt out, a project's may not
// and is held by the project gate; with the sandbox off nothing is
// wrapped.
func TestSandboxServers(t *testing.T) {
	user := json.RawMessage(`{"free":{"command":"a","sandbox":false},"boxed":{"command":"b"},"shadowed":{"command":"c","sandbox":false}}`)
	project := json.RawMessage(`{"proj":{"command":"d","sandbox":false},"shadowed":{"command":"e","sandbox":false}}`)
	client := mcp.ServerConfig{Name: "client", Command: "f", Unsandboxed: true}
	roots, err := tools.NewRoots(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.DiscardHandler)
	for _, mode := range []string{"workspace-write", "off"} {
		t.Run(mode, func(t *testing.T) {
			cfg := config.Config{Sandbox: mode, MCPServers: user, ProjectMCPServers: project}
			gate := mcp.NewGate()
			servers, fromProject := mcpServers(cfg, log, client)
			byName := map[string]mcp.ServerConfig{}
			for _, s := range sandboxServers(servers, fromProject, cfg, roots, gate, nil, log) {
				byName[s.Name] = s
			}
			sandboxed := mode != "off"
			for name, want := range map[string]struct{ wrapped, gated bool }{
				"free": {false, false}, "boxed": {sandboxed, false}, "client": {false, false},
				"proj": {sandboxed, true}, "shadowed": {sandboxed, true},
			} {
				s, ok := byName[name]
				if !ok {
					t.Fatalf("server %s missing", name)
				}
				if got := s.Wrap != nil; got != want.wrapped {
					t.Errorf("%s: sandboxed %v, want %v", name, got, want.wrapped)
				}
				if got := s.Gate == gate; got != want.gated {
					t.Errorf("%s: held by the project gate %v, want %v", name, got, want.gated)
				}
			}
		})
	}
}

// TestProjectCannotLoosenSandbox: a project's settings cannot turn the
// sandbox off or cut hooks' network rule: those fields are the user's.
func TestProjectCannotLoosenSandbox(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, ".companion"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(config.ProjectSettingsPath(root),
		[]byte(`{"sandbox":"off","sandboxNetwork":true,"hooksSandboxNetwork":true,"model":"m"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	off := false
	user := config.Config{Sandbox: "workspace-write", HooksSandboxNetwork: &off}
	p, err := config.LoadProject(root)
	if err != nil {
		t.Fatal(err)
	}
	cfg := user.WithProject(p)
	if cfg.Model != "m" {
		t.Fatal("the project settings were not applied at all")
	}
	if cfg.Sandbox != "workspace-write" || cfg.SandboxNetwork || hooksNetwork(cfg) {
		t.Errorf("project settings loosened the sandbox: sandbox %q, network %v, hooks network %v",
			cfg.Sandbox, cfg.SandboxNetwork, hooksNetwork(cfg))
	}
}

// TestProjectGate: a closed gate holds project hooks back and its MCP
// gate closed; opening it again lets them run.
func TestProjectGate(t *testing.T) {
	g := newProjectGate()
	if !g.enabled() || g.mcp.Closed() {
		t.Fatal("a new gate is closed")
	}
	g.set(false, "the editor says so")
	if g.enabled() || !g.mcp.Closed() {
		t.Error("an untrusted workspace's gate is open")
	}
	g.set(true, "")
	if !g.enabled() || g.mcp.Closed() {
		t.Error("trust came back but the gate stays closed")
	}
}

// TestSandboxOneProbe: the host's prober (given in Options) picks the
// backend once for every session's /status, hooks and MCP servers; a
// host given none makes its own.
func TestSandboxOneProbe(t *testing.T) {
	t.Setenv(sandbox.BackendEnv, "")
	var probes atomic.Int32
	probe := sandbox.NewProber(func(sandbox.Backend, string) (sandbox.ProbeResult, error) {
		probes.Add(1)
		return sandbox.ProbeResult{}, errors.New("PROBE-4711: no backend")
	})
	h := newTestHost(t)
	if h.Sandbox() == nil {
		t.Fatal("a host given no prober has none")
	}
	h = New(Options{Config: h.Config(), Model: h.opts.Model, Tools: h.opts.Tools, Sandbox: probe})
	t.Cleanup(h.Close)
	cfg := h.Config()
	cfg.Sandbox = "read-only"
	h.SetConfig(cfg)
	roots, err := tools.NewRoots(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		var mu sync.Mutex
		var text strings.Builder
		p := Ports{Sink: agent.SinkFunc(func(_ context.Context, e agent.Event) {
			if m, ok := e.(agent.MessageChunk); ok {
				mu.Lock()
				text.WriteString(m.Text)
				mu.Unlock()
			}
		})}
		s, err := h.New(t.Context(), Request{Cwd: roots.Primary()}, p)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Agent.Prompt(t.Context(), []model.Part{{Text: "/status"}}); err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		if !strings.Contains(text.String(), "PROBE-4711") {
			t.Errorf("/status does not report the shared probe's answer: %q", text.String())
		}
		mu.Unlock()
	}
	log := slog.New(slog.DiscardHandler)
	cfg.MCPServers = json.RawMessage(`{"a":{"command":"a"},"b":{"command":"b"}}`)
	servers, fromProject := mcpServers(cfg, log)
	wraps := []func([]string) ([]string, error){commandWrap(commandSandbox(cfg, h.Sandbox()), roots, true)}
	for _, s := range sandboxServers(servers, fromProject, cfg, roots, mcp.NewGate(), h.Sandbox(), log) {
		wraps = append(wraps, s.Wrap)
	}
	for i, wrap := range wraps {
		if _, err := wrap([]string{"true"}); err == nil || !strings.Contains(err.Error(), "PROBE-4711") {
			t.Errorf("command %d: wrap error %v, want the shared probe's", i, err)
		}
	}
	if n := probes.Load(); n != 1 {
		t.Errorf("%d probes, want one for the host", n)
	}
}
