package host

import (
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"companion/config"
	"companion/tools"
)

// TestHeldBackSettings: a session in a folder whose settings were never
// accepted gets the restricting parts only, a notice naming what waits,
// and /accept-settings; after accepting, a new session gets everything.
func TestHeldBackSettings(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	path := config.ProjectSettingsPath(root)
	os.MkdirAll(filepath.Dir(path), 0o755)
	os.WriteFile(path, []byte(`{"permissions":{"allow":["shell(make)"],"deny":["shell(rm)"]}}`), 0o644)
	user, err := config.Load(func(k string) string {
		return map[string]string{"HOME": t.TempDir(), "COMPANION_STATE_DIR": t.TempDir()}[k]
	})
	if err != nil {
		t.Fatal(err)
	}
	roots, err := tools.NewRoots(root)
	if err != nil {
		t.Fatal(err)
	}
	session := func() (config.Config, func() (string, error), string) {
		cfg, trusted, err := SessionConfig(user, root)
		if err != nil || !trusted {
			t.Fatalf("SessionConfig: %v, trusted %v", err, trusted)
		}
		opts, err := AgentOptions(Base{ID: "s", Roots: roots, Config: cfg, Trusted: true, Tools: tools.NewRegistry(), Log: slog.New(slog.DiscardHandler)})
		if err != nil {
			t.Fatal(err)
		}
		notice := ""
		for _, n := range opts.Notices {
			notice += n.Text
		}
		return cfg, opts.AcceptSettings, notice
	}
	cfg, accept, notice := session()
	if len(cfg.Permissions.Allow) != 0 || len(cfg.Permissions.Deny) != 1 || accept == nil {
		t.Fatalf("held back: allow %q deny %q, accept command %v", cfg.Permissions.Allow, cfg.Permissions.Deny, accept != nil)
	}
	for _, want := range []string{path, "allows shell(make)", "/accept-settings", "companion settings accept " + root} {
		if !strings.Contains(notice, want) {
			t.Errorf("notice %q lacks %q", notice, want)
		}
	}
	if out, err := accept(); err != nil || !strings.Contains(out, "Accepted") {
		t.Fatalf("accept = %q, %v", out, err)
	}
	cfg, accept, notice = session()
	if len(cfg.Permissions.Allow) != 1 || accept != nil || notice != "" {
		t.Errorf("after accepting: allow %q, accept command %v, notice %q", cfg.Permissions.Allow, accept != nil, notice)
	}
}
