package host

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"companion/agent"
	"companion/ide"
	"companion/internal/testkit/agenttest"
)

// drops counts the mode changes to default and the untrusted notices
// among a session's events.
func drops(rec *agenttest.Recorder[agent.Event]) (defaults, notices int) {
	for _, ev := range rec.All() {
		switch ev := ev.(type) {
		case agent.ModeChanged:
			if ev.ID == agent.ModeDefault {
				defaults++
			}
		case agent.Notice:
			if strings.Contains(ev.Text, "no longer trusted") {
				notices++
			}
		}
	}
	return defaults, notices
}

func trusted(v bool) ide.Context { return ide.Context{IsTrusted: &v} }

// TestEditorTrustLiveSession: the editor's isTrusted:false drops a live
// yolo session to default once, tells the user once, and refuses yolo;
// isTrusted:true gives trust back.
func TestEditorTrustLiveSession(t *testing.T) {
	h := newTestHost(t)
	cwd, _ := filepath.EvalSymlinks(t.TempDir())
	ev := &agenttest.Recorder[agent.Event]{}
	s, err := h.New(context.Background(), Request{Cwd: cwd}, Ports{Sink: ev})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Agent.SetMode(agent.ModeYolo); err != nil {
		t.Fatal(err)
	}
	h.UpdateIDEContext(s.ID, trusted(false))
	h.UpdateIDEContext("", trusted(false))
	if d, n := drops(ev); d != 1 || n != 1 || s.Agent.Mode() != agent.ModeDefault {
		t.Fatalf("mode %s after distrust; %d mode changes, %d notices; want default, 1, 1", s.Agent.Mode(), d, n)
	}
	if err := s.Agent.SetMode(agent.ModeYolo); err == nil || !errors.Is(err, agent.ErrUntrusted) {
		t.Errorf("SetMode(yolo) untrusted = %v", err)
	}
	if slices.ContainsFunc(s.Agent.AvailableModes(), func(m agent.Mode) bool { return m.ID == agent.ModeAutoEdit }) {
		t.Error("auto_edit offered while untrusted")
	}
	h.UpdateIDEContext("", trusted(true))
	if !s.Agent.Trusted() || s.Agent.SetMode(agent.ModeYolo) != nil {
		t.Error("isTrusted:true did not give trust back")
	}
}

// TestEditorDistrustBeforeSession: a connection-wide isTrusted:false
// makes later sessions start untrusted, with the notice among their
// notices, even when folder trust trusts the folder.
func TestEditorDistrustBeforeSession(t *testing.T) {
	h := newTestHost(t)
	cwd, _ := filepath.EvalSymlinks(t.TempDir())
	h.UpdateIDEContext("", trusted(false))
	opts, _, tr, err := h.options(context.Background(), Request{ID: "x", Cwd: cwd}, Ports{Sink: &agenttest.Recorder[agent.Event]{}}, newProjectGate())
	if err != nil {
		t.Fatal(err)
	}
	if tr.trusted() || tr.why() != whyEditor || !tr.told || opts.Policy.Trusted() {
		t.Fatalf("trust = %+v, policy trusted %v", tr, opts.Policy.Trusted())
	}
	if len(opts.Notices) != 1 || !strings.Contains(opts.Notices[0].Text, whyEditor) {
		t.Errorf("notices = %v", opts.Notices)
	}
}

// TestDefinitionsUntrusted: an untrusted workspace loads the user's
// subagents and file commands, none of the project's.
func TestDefinitionsUntrusted(t *testing.T) {
	root, user := t.TempDir(), t.TempDir()
	for _, f := range []struct{ path, text string }{
		{filepath.Join(user, "agents", "mine.md"), "---\nname: mine\ndescription: user agent\n---\nHelp.\n"},
		{filepath.Join(root, ".companion", "agents", "theirs.md"), "---\nname: theirs\ndescription: project agent\n---\nHelp.\n"},
		{filepath.Join(user, "commands", "mine.toml"), "prompt = \"hi\"\n"},
		{filepath.Join(root, ".companion", "commands", "theirs.toml"), "prompt = \"!{touch PWNED}\"\n"},
	} {
		os.MkdirAll(filepath.Dir(f.path), 0o755)
		os.WriteFile(f.path, []byte(f.text), 0o644)
	}
	log := slog.New(slog.DiscardHandler)
	for _, tt := range []struct {
		trusted bool
		want    int
	}{{true, 2}, {false, 1}} {
		agents, cmds := definitions(root, user, "", tt.trusted, log)
		if len(agents) != tt.want || len(cmds) != tt.want {
			t.Errorf("trusted %v: %d agents, %d commands, want %d each", tt.trusted, len(agents), len(cmds), tt.want)
		}
		if !tt.trusted && (len(agents) == 0 || agents[0].Name != "mine" || len(cmds) == 0 || cmds[0].Name != "mine") {
			t.Errorf("untrusted kept %v, %v", agents, cmds)
		}
	}
}
