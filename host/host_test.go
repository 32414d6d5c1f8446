package host

import (
	"context"
	"errors"
	"path/filepath"
	"sync"
	"testing"

	"companion/agent"
	"companion/config"
	"companion/tools"
)

// observer records what the host told it.
type observer struct {
	mu     sync.Mutex
	opened []*agent.Session
}

func (o *observer) Opened(a *agent.Session) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.opened = append(o.opened, a)
}
func (o *observer) CommandsChanged([]agent.Command) {}
func (o *observer) MCPFailed(string, string)        {}

// newTestHost is a host on the demo model with no tools, its settings and
// state in temp directories.
func newTestHost(t *testing.T) *Host {
	t.Helper()
	dirs := map[string]string{"HOME": t.TempDir(), "COMPANION_STATE_DIR": t.TempDir()}
	cfg, err := config.Load(func(k string) string { return dirs[k] })
	if err != nil {
		t.Fatal(err)
	}
	cfg.Script = "demo"
	models := NewModels(nil)
	t.Cleanup(models.Close)
	h := New(Options{Config: cfg, Model: models.Get, Tools: func(config.Config) *tools.Registry { return tools.NewRegistry() }})
	t.Cleanup(h.Close)
	return h
}

func ports(obs Observer) Ports {
	return Ports{Sink: agent.SinkFunc(func(context.Context, agent.Event) {}), Observer: obs}
}

// TestHostSessionLifecycle: New registers the session and tells the
// observer before returning; Drop forgets it; Restore brings the stored
// session back under its id; Delete removes it from the store.
func TestHostSessionLifecycle(t *testing.T) {
	ctx := context.Background()
	h := newTestHost(t)
	cwd, _ := filepath.EvalSymlinks(t.TempDir())
	obs := &observer{}
	s, err := h.New(ctx, Request{Cwd: cwd}, ports(obs))
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := h.Session(s.ID); !ok || got != s {
		t.Fatalf("Session(%s) = %v, %v", s.ID, got, ok)
	}
	if len(obs.opened) != 1 || obs.opened[0] != s.Agent {
		t.Fatalf("observer opened %v, want the new agent session", obs.opened)
	}
	h.Drop(s)
	if _, ok := h.Session(s.ID); ok {
		t.Fatal("dropped session still registered")
	}
	back, _, err := h.Restore(ctx, Request{ID: s.ID, Cwd: cwd}, ports(obs))
	if err != nil {
		t.Fatal(err)
	}
	if back.ID != s.ID || len(obs.opened) != 2 {
		t.Errorf("restored %s (observer told %d times), want %s", back.ID, len(obs.opened), s.ID)
	}
	if err := h.Delete(s.ID); err != nil {
		t.Fatal(err)
	}
	if _, _, err := h.Restore(ctx, Request{ID: s.ID, Cwd: cwd}, ports(obs)); !errors.Is(err, ErrNotFound) {
		t.Errorf("restoring a deleted session: %v, want ErrNotFound", err)
	}
}

// TestHostErrorKinds: front ends map the host's errors by kind.
func TestHostErrorKinds(t *testing.T) {
	h := newTestHost(t)
	cwd := t.TempDir()
	for _, tc := range []struct {
		name string
		req  Request
		want error
	}{
		{"relative cwd", Request{Cwd: "rel"}, ErrInvalid},
		{"missing directory", Request{Cwd: filepath.Join(cwd, "missing")}, ErrInvalid},
		{"bad extra directory", Request{Cwd: cwd, Extra: []string{"x"}}, ErrInvalid},
		{"bad allow rule", Request{Cwd: cwd, AllowRules: []string{"shell("}}, ErrRules},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := h.New(context.Background(), tc.req, ports(nil)); !errors.Is(err, tc.want) {
				t.Errorf("New = %v, want %v", err, tc.want)
			}
		})
	}
}
