package command

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"companion/agent"
	"companion/internal/testkit/agenttest"
)

// TestMemoryCommand: /memory add saves a fact to the user's memory file
// and /memory refresh rereads an edited AGENTS.md; either way the next
// request's system prompt holds the change without a new session.
func TestMemoryCommand(t *testing.T) {
	m := &agenttest.Model{}
	userDir := t.TempDir()
	s, rec := newTestSession(t, m, func(o *agent.Options) { o.Memory.UserDirs = []string{userDir} })
	prompt(t, s, "hello")
	if sys := m.Requests()[0].System; !strings.Contains(sys, "Use tabs.") {
		t.Fatalf("the first system prompt lacks AGENTS.md:\n%s", sys)
	}
	prompt(t, s, "/memory add The build is make all.")
	if got := lastMessage(rec); got != "Saved to your memory file." {
		t.Errorf("/memory add said %q", got)
	}
	if err := os.WriteFile(filepath.Join(s.Root(), "AGENTS.md"), []byte("Use spaces."), 0o644); err != nil {
		t.Fatal(err)
	}
	prompt(t, s, "/memory refresh")
	if got := lastMessage(rec); got != "Memory reloaded." {
		t.Errorf("/memory refresh said %q", got)
	}
	prompt(t, s, "again")
	reqs := m.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2 (the commands do not call the model)", len(reqs))
	}
	sys := reqs[1].System
	for _, want := range []string{"The build is make all.", "Use spaces."} {
		if !strings.Contains(sys, want) {
			t.Errorf("the system prompt after /memory lacks %q:\n%s", want, sys)
		}
	}
	if strings.Contains(sys, "Use tabs.") {
		t.Errorf("the system prompt still holds the old AGENTS.md:\n%s", sys)
	}
}
