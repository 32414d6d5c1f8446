package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSkillsList(t *testing.T) {
	home, ws := t.TempDir(), t.TempDir()
	skill := func(name, desc string) string {
		return "---\nname: " + name + "\ndescription: " + desc + "\n---\nbody\n"
	}
	for p, content := range map[string]string{
		filepath.Join(ws, ".claude/skills/review/SKILL.md"):             skill("review", "project review"),
		filepath.Join(home, ".config/companion/skills/review/SKILL.md"): skill("review", "user review"),
		filepath.Join(home, ".agents/skills/explain/SKILL.md"):          skill("explain", "user explain"),
		filepath.Join(home, ".gemini/skills/bad/SKILL.md"):              skill("Bad", "bad name"),
	} {
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run1 := runIn(home)
	for _, tt := range []struct {
		args []string
		code int
		want []string
	}{
		{[]string{"skills"}, 2, []string{"Usage:"}},
		{[]string{"skills", "list", ws, "extra"}, 2, []string{"Usage:"}},
		{[]string{"skills", "list", ws}, 0, []string{"review (project) " + filepath.Join(ws, ".claude/skills/review/SKILL.md"),
			"hides the user skill in " + filepath.Join(home, ".config/companion/skills/review/SKILL.md"), "explain (user)", "skipped " + filepath.Join(home, ".gemini/skills/bad/SKILL.md")}},
	} {
		code, out := run1(tt.args...)
		if code != tt.code {
			t.Errorf("%q = %d, want %d\n%s", tt.args, code, tt.code, out)
		}
		for _, w := range tt.want {
			if !strings.Contains(out, w) {
				t.Errorf("%q: output lacks %q:\n%s", tt.args, w, out)
			}
		}
	}

	// With folder trust on and the folder not trusted, project skills are
	// not listed and the JSON says so.
	settings := filepath.Join(home, ".config", "companion", "settings.json")
	if err := os.WriteFile(settings, []byte(`{"folderTrust":{"enabled":true}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out := run1("skills", "list", "--json", ws)
	var got skillsListing
	if err := json.Unmarshal([]byte(out), &got); code != 0 || err != nil {
		t.Fatalf("code %d, %v:\n%s", code, err, out)
	}
	var names []string
	for _, s := range got.Skills {
		names = append(names, s.Name+"="+s.Description+"/"+string(s.Source))
	}
	if strings.Join(names, " ") != "explain=user explain/user review=user review/user" || !got.ProjectSkipped || len(got.Problems) != 1 {
		t.Errorf("untrusted listing: %s", out)
	}
}
