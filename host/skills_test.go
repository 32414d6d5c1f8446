package host

import (
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"companion/agent/skills"
	"companion/config"
	"companion/tools"
)

// TestSessionSkills: a trusted session gets the project's skills over the
// user's, the activate_skill tool, and one notice naming the skipped skill
// and the user skill a project skill hides; an untrusted one gets the
// user's skills only, and the untrusted notice says skills are held back.
func TestSessionSkills(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	env := map[string]string{"HOME": home, "XDG_CONFIG_HOME": filepath.Join(home, "cfg"), "COMPANION_STATE_DIR": t.TempDir()}
	getenv := func(k string) string { return env[k] }
	skill := func(name, desc string) string {
		return "---\nname: " + name + "\ndescription: " + desc + "\n---\nbody\n"
	}
	for p, content := range map[string]string{
		filepath.Join(root, ".companion/skills/shared/SKILL.md"):       skill("shared", "from the project"),
		filepath.Join(root, ".agents/skills/broken/SKILL.md"):          "no front matter",
		filepath.Join(home, "cfg/companion/skills/shared/SKILL.md"):    skill("shared", "from the user"),
		filepath.Join(home, ".claude/skills/mine/SKILL.md"):            skill("mine", "the user's own"),
		filepath.Join(home, "cfg/companion/skills/Not-Valid/SKILL.md"): skill("Not-Valid", "bad name"),
	} {
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg, err := config.Load(getenv)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		trusted bool
		want    string // name=description, in order
		notice  []string
		absent  []string
	}{
		{true, "mine=the user's own shared=from the project", []string{"broken/SKILL.md", "Not-Valid", "hides your skill of the same name in " + filepath.Join(home, "cfg/companion/skills/shared/SKILL.md")}, nil},
		{false, "mine=the user's own shared=from the user", []string{"Not-Valid", "file commands, skills and subagents are not loaded"}, []string{"broken", "hides"}},
	}
	for _, tt := range tests {
		roots, err := tools.NewRoots(root)
		if err != nil {
			t.Fatal(err)
		}
		reg := tools.NewRegistry()
		opts, err := AgentOptions(Base{ID: "s", Roots: roots, Config: cfg, Trusted: tt.trusted, Untrusted: whyFolder,
			Tools: reg, Log: slog.New(slog.DiscardHandler), Getenv: getenv})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, s := range opts.Skills.Summaries() {
			got = append(got, s.Name+"="+s.Description)
		}
		if strings.Join(got, " ") != tt.want {
			t.Errorf("trusted %v: skills %q, want %q", tt.trusted, got, tt.want)
		}
		if _, ok := reg.Get(skills.ToolName); !ok {
			t.Errorf("trusted %v: no %s tool", tt.trusted, skills.ToolName)
		}
		notice := ""
		for _, n := range opts.Notices {
			notice += n.Text + "\n"
		}
		for _, w := range tt.notice {
			if !strings.Contains(notice, w) {
				t.Errorf("trusted %v: notices lack %q:\n%s", tt.trusted, w, notice)
			}
		}
		for _, w := range tt.absent {
			if strings.Contains(notice, w) {
				t.Errorf("trusted %v: notices say %q:\n%s", tt.trusted, w, notice)
			}
		}
	}
}

// TestSettingsWarningsNoticed: a settings problem that did not stop
// loading (a damaged ~/.gemini/settings.json) reaches the user as a
// notice of every session, not only a log line.
func TestSettingsWarningsNoticed(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	env := map[string]string{"HOME": home, "XDG_CONFIG_HOME": filepath.Join(home, "cfg"), "COMPANION_STATE_DIR": t.TempDir()}
	getenv := func(k string) string { return env[k] }
	if err := os.MkdirAll(filepath.Join(home, ".gemini"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".gemini", "settings.json"), []byte(`{"model": }`), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(getenv)
	if err != nil {
		t.Fatal(err)
	}
	roots, err := tools.NewRoots(root)
	if err != nil {
		t.Fatal(err)
	}
	opts, err := AgentOptions(Base{ID: "s", Roots: roots, Config: cfg, Trusted: true,
		Tools: tools.NewRegistry(), Log: slog.New(slog.DiscardHandler), Getenv: getenv})
	if err != nil {
		t.Fatal(err)
	}
	var said []string
	for _, n := range opts.Notices {
		said = append(said, n.Text)
	}
	if !strings.Contains(strings.Join(said, "\n"), "settings.json:1:") {
		t.Errorf("notices %q do not name the damaged settings file", said)
	}
}
