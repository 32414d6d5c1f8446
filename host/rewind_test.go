package host

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"companion/agent"
	"companion/agent/model"
	"companion/agent/store"
)

// TestRewindStoredSession: a closed session with two prompts is forked
// before its second prompt and copied whole; the original keeps both
// prompts, and bad requests are ErrInvalid.
func TestRewindStoredSession(t *testing.T) {
	ctx := context.Background()
	h := newTestHost(t)
	cwd, _ := filepath.EvalSymlinks(t.TempDir())
	s, err := h.New(ctx, Request{Cwd: cwd}, ports(nil))
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{"one", "two"} {
		if _, err := s.Agent.Prompt(ctx, []model.Part{{Text: text}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Agent.SetMode(agent.ModeAutoEdit); err != nil {
		t.Fatal(err)
	}
	h.Drop(s)
	r, err := h.Rewind(ctx, s.ID, 1, true)
	if err != nil {
		t.Fatal(err)
	}
	if r.ID == s.ID || r.Prompt.Index != 1 || len(r.Prompt.Text) != 1 || r.Prompt.Text[0] != "two" || len(r.Restored) != 0 {
		t.Errorf("Rewind = %+v", r)
	}
	prompts := func(id string) int {
		meta, recs, err := h.Store().Load(id)
		if err != nil || meta.Cwd != cwd {
			t.Fatalf("Load(%s): %v, cwd %q", id, err, meta.Cwd)
		}
		return len(agent.Prompts(recs))
	}
	if prompts(r.ID) != 1 || prompts(s.ID) != 2 {
		t.Errorf("prompts: fork %d, original %d; want 1 and 2", prompts(r.ID), prompts(s.ID))
	}
	back, _, err := h.Restore(ctx, Request{ID: r.ID, Cwd: cwd}, ports(nil))
	if err != nil {
		t.Fatal(err)
	}
	if back.Agent.Mode() != agent.ModeAutoEdit {
		t.Errorf("the fork's mode = %s, want the original's auto_edit", back.Agent.Mode())
	}
	whole, err := h.Fork(s.ID)
	if err != nil || prompts(whole) != 2 {
		t.Errorf("Fork = %s, %v; want a copy with both prompts", whole, err)
	}
	for _, tt := range []struct {
		id string
		n  int
	}{{s.ID, 2}, {s.ID, -1}, {"sess_nope", 0}, {"../x", 0}} {
		if _, err := h.Rewind(ctx, tt.id, tt.n, false); !errors.Is(err, ErrInvalid) {
			t.Errorf("Rewind(%s, %d) = %v, want ErrInvalid", tt.id, tt.n, err)
		}
	}
}

// TestRewindToFirstPromptIsUntitled: a fork before the first prompt holds no
// conversation, so it has no title (an editor's history leaves it out) until
// its own first prompt; a later fork keeps the title with " (fork)".
func TestRewindToFirstPromptIsUntitled(t *testing.T) {
	ctx := context.Background()
	h := newTestHost(t)
	cwd, _ := filepath.EvalSymlinks(t.TempDir())
	s, err := h.New(ctx, Request{Cwd: cwd}, ports(nil))
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{"one", "two"} {
		if _, err := s.Agent.Prompt(ctx, []model.Part{{Text: text}}); err != nil {
			t.Fatal(err)
		}
	}
	h.Drop(s)
	title := func(id string) string {
		_, recs, err := h.Store().Load(id)
		if err != nil {
			t.Fatal(err)
		}
		return store.LastTitle(recs)
	}
	if title(s.ID) == "" {
		t.Fatal("the original session has no title")
	}
	first, err := h.Rewind(ctx, s.ID, 0, false)
	if err != nil {
		t.Fatal(err)
	}
	if got := title(first.ID); got != "" {
		t.Errorf("fork before the first prompt titled %q, want none", got)
	}
	second, err := h.Rewind(ctx, s.ID, 1, false)
	if err != nil {
		t.Fatal(err)
	}
	if got := title(second.ID); got != title(s.ID)+forkSuffix {
		t.Errorf("fork before the second prompt titled %q, want %q", got, title(s.ID)+forkSuffix)
	}
}
