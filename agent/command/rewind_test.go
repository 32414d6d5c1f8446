package command

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"companion/agent"
	"companion/agent/checkpoint"
	"companion/agent/model"
	"companion/internal/testkit/agenttest"
	"companion/tools"
	"companion/tools/builtin"
)

// TestRewindCommandRestoresFilesAndCutsHistory: /rewind lists the
// prompts; /rewind N puts the files back as before prompt N, cuts the
// conversation there (live and on reload) and keeps the cut part as a
// fork; numbering goes on from the cut.
func TestRewindCommandRestoresFilesAndCutsHistory(t *testing.T) {
	m := &agenttest.Model{Turns: slices.Concat(editTurns("v1"), editTurns("v2"))}
	s, rec, j, f := rewindSession(t, m)
	prompt(t, s, "first edit")
	prompt(t, s, "second edit")
	if got := readA(t, s); got != "v2" {
		t.Fatalf("a.txt = %q before the rewind, want v2", got)
	}
	prompt(t, s, "/rewind")
	if got := lastMessage(rec); !strings.Contains(got, "- 0: first edit\n- 1: second edit\n") {
		t.Errorf("/rewind listed %q", got)
	}
	prompt(t, s, "/rewind 1")
	if got := readA(t, s); got != "v1" {
		t.Errorf("a.txt = %q after /rewind 1, want v1 (as after prompt 0)", got)
	}
	// The cut part is kept as a fork: both edits and the /rewind listing.
	if len(f.Forks()) != 1 {
		t.Fatalf("forks = %d, want 1", len(f.Forks()))
	}
	if got := agent.Prompts(f.Forks()["fork-1"]); len(got) != 3 || got[1].Text[0] != "second edit" {
		t.Errorf("fork's prompts = %+v, want the two edits and /rewind", got)
	}
	// A reload replays one user message, and the session, live or
	// reloaded, sends the model the first prompt only before the next.
	restored, events, err := agent.Restore(agent.Options{ID: "s1", Roots: roots(t, s), Model: m, ModelName: "m1",
		Tools: tools.NewRegistry(builtin.Editing(builtin.EditOptions{})...), Sink: &agenttest.Recorder[agent.Event]{}}, j.Records())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(restored.Close)
	var replayed []string
	for _, ev := range events {
		if u, ok := ev.(agent.UserChunk); ok {
			replayed = append(replayed, u.Text)
		}
	}
	if strings.Join(replayed, "|") != "first edit" {
		t.Errorf("replayed user chunks = %q, want the first prompt only", replayed)
	}
	for name, sess := range map[string]*agent.Session{"live": s, "reloaded": restored} {
		prompt(t, sess, "next")
		reqs := m.Requests()
		if got := userTexts(reqs[len(reqs)-1].Contents); strings.Join(got, "|") != "first edit|next" {
			t.Errorf("%s: the model read the user texts %q, want the first prompt and the next", name, got)
		}
	}
	// Prompt numbering continues from the cut: /rewind 0 is still the first.
	prompt(t, s, "/rewind 0")
	if got := readA(t, s); got != "v0" {
		t.Errorf("a.txt = %q after /rewind 0, want the original v0", got)
	}
	if got := agent.Prompts(j.Records()); len(got) != 0 {
		t.Errorf("prompts after /rewind 0 = %+v, want none", got)
	}
}

// TestRewindCommandRefusals: /rewind with nothing to go back to, or a
// number out of range, changes nothing.
func TestRewindCommandRefusals(t *testing.T) {
	s, rec, _, f := rewindSession(t, &agenttest.Model{Turns: editTurns("v1")})
	prompt(t, s, "/rewind")
	if got := lastMessage(rec); !strings.Contains(got, "no earlier prompt") {
		t.Errorf("/rewind on a fresh session said %q", got)
	}
	prompt(t, s, "edit")
	prompt(t, s, "/rewind 7")
	if got := lastMessage(rec); !strings.Contains(got, "Usage") || readA(t, s) != "v1" || len(f.Forks()) != 0 {
		t.Errorf("/rewind 7 said %q, a.txt %q, forks %d; want usage and nothing changed", got, readA(t, s), len(f.Forks()))
	}
}

// rewindSession is a yolo session with a journal, a forker and file
// checkpoints, whose a.txt holds "v0".
func rewindSession(t *testing.T, m *agenttest.Model) (*agent.Session, *agenttest.Recorder[agent.Event], *agenttest.Journal, *agenttest.Forker) {
	t.Helper()
	j := &agenttest.Journal{}
	f := &agenttest.Forker{J: j}
	s, rec := newTestSession(t, m, func(o *agent.Options) {
		cps, err := checkpoint.Open(t.TempDir(), o.Roots.Primary(), nil, checkpoint.WithoutGit())
		if err != nil {
			t.Fatal(err)
		}
		o.Tools, o.Mode, o.Journal, o.Forks, o.Checkpoints = tools.NewRegistry(builtin.Editing(builtin.EditOptions{})...), agent.ModeYolo, j, f, cps
		o.Now = time.Now
	})
	if err := os.WriteFile(filepath.Join(s.Root(), "a.txt"), []byte("v0"), 0o644); err != nil {
		t.Fatal(err)
	}
	return s, rec, j, f
}

// roots are the session's roots as tools.Roots.
func roots(t *testing.T, s *agent.Session) *tools.Roots {
	t.Helper()
	all := s.Roots()
	r, err := tools.NewRoots(all[0], all[1:]...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func readA(t *testing.T, s *agent.Session) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(s.Root(), "a.txt"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// editTurns are the model's answers to one prompt that writes text to a.txt.
func editTurns(text string) []agenttest.Turn {
	return agenttest.Replies(agenttest.Call("write_file", map[string]any{"file_path": "a.txt", "content": text}),
		agenttest.Text("Wrote "+text+"."))
}

// userTexts are the user turns' texts of a history.
func userTexts(cs []model.Content) []string {
	var out []string
	for _, c := range cs {
		for _, p := range c.Parts {
			if c.Role == model.RoleUser && p.Text != "" && p.FunctionResponse == nil {
				out = append(out, p.Text)
			}
		}
	}
	return out
}
