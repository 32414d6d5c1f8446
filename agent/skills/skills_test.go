package skills

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"companion/tools"
)

func TestParse(t *testing.T) {
	long := strings.Repeat("x", MaxDescriptionLen+1)
	tests := []struct {
		name, in string
		want     Skill
		body     string
		err      string
	}{
		{"minimal", "---\nname: a\ndescription: d\n---\nbody\n", Skill{Name: "a", Description: "d"}, "body", ""},
		{"bom and blank lines", "\ufeff\n---\nname: a-1\ndescription: d\n---\n\n  body  \n", Skill{Name: "a-1", Description: "d"}, "body", ""},
		{"tools as string", "---\nname: a\ndescription: d\nallowed-tools: Read, Grep Glob\n---\n", Skill{Name: "a", Description: "d", AllowedTools: []string{"Read", "Grep", "Glob"}}, "", ""},
		{"tools as list", "---\nname: a\ndescription: d\nallowed-tools: [read_file, grep]\n---\nb", Skill{Name: "a", Description: "d", AllowedTools: []string{"read_file", "grep"}}, "b", ""},
		{"other fields ignored", "---\nname: a\ndescription: d\nlicense: MIT\nmetadata: {x: 1}\n---\nb", Skill{Name: "a", Description: "d"}, "b", ""},
		{"no front matter", "# just markdown\n", Skill{}, "", "no YAML front matter"},
		{"unclosed front matter", "---\nname: a\n", Skill{}, "", "no YAML front matter"},
		{"bad yaml", "---\nname: [a\n---\n", Skill{}, "", "front matter"},
		{"no name", "---\ndescription: d\n---\n", Skill{}, "", "name is required"},
		{"upper case", "---\nname: Go-Review\ndescription: d\n---\n", Skill{}, "", "lowercase"},
		{"double hyphen", "---\nname: a--b\ndescription: d\n---\n", Skill{}, "", "single hyphens"},
		{"leading hyphen", "---\nname: -a\ndescription: d\n---\n", Skill{}, "", "lowercase"},
		{"name too long", "---\nname: " + strings.Repeat("a", MaxNameLen+1) + "\ndescription: d\n---\n", Skill{}, "", "at most 64"},
		{"name at limit", "---\nname: " + strings.Repeat("a", MaxNameLen) + "\ndescription: d\n---\n", Skill{Name: strings.Repeat("a", MaxNameLen), Description: "d"}, "", ""},
		{"no description", "---\nname: a\n---\n", Skill{}, "", "description is required"},
		{"description too long", "---\nname: a\ndescription: " + long + "\n---\n", Skill{}, "", "at most 1024"},
		{"tools as map", "---\nname: a\ndescription: d\nallowed-tools: {a: b}\n---\n", Skill{}, "", "allowed-tools must be"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, body, err := parse([]byte(tt.in))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Name != tt.want.Name || got.Description != tt.want.Description || !slices.Equal(got.AllowedTools, tt.want.AllowedTools) || body != tt.body {
				t.Errorf("got %+v body %q, want %+v body %q", got, body, tt.want, tt.body)
			}
		})
	}
}

// testdataDir is the absolute, resolved path of testdata/sub.
func testdataDir(t *testing.T, sub string) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("testdata", sub))
	if err != nil {
		t.Fatal(err)
	}
	if dir, err = filepath.EvalSymlinks(dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

// brief is a skill as the discovery tests compare it: name, source,
// folder relative to testdata, hidden skills relative to testdata.
func brief(t *testing.T, sk Skill) string {
	base := testdataDir(t, "")
	rel := func(p string) string { r, _ := filepath.Rel(base, p); return filepath.ToSlash(r) }
	s := sk.Name + " " + string(sk.Source) + " " + rel(sk.Dir)
	for _, h := range sk.Shadowed {
		s += " hides " + string(h.Source) + ":" + rel(h.Path)
	}
	return s
}

func TestDiscover(t *testing.T) {
	project, user := testdataDir(t, "project"), testdataDir(t, "user")
	userLocs := UserLocations(filepath.Join(user, "config"), filepath.Join(user, "home"))
	tests := []struct {
		name     string
		locs     []Location
		want     []string
		problems []string // substrings, in order
	}{
		{"trusted: project over user", Locations([]string{project}, true, filepath.Join(user, "config"), filepath.Join(user, "home")),
			[]string{
				"explain user user/config/skills/explain hides user:user/home/.claude/skills/explain/SKILL.md",
				"go-review project project/.companion/skills/go-review hides project:project/.claude/skills/go-review/SKILL.md hides user:user/config/skills/go-review/SKILL.md",
				"release project project/.agents/skills/release",
			},
			[]string{"no-description/SKILL.md: description is required", "Bad_Name/SKILL.md: name \"Bad_Name\"", "broken/SKILL.md: no YAML front matter"}},
		{"untrusted: no project skills", Locations([]string{project}, false, filepath.Join(user, "config"), filepath.Join(user, "home")),
			[]string{
				"explain user user/config/skills/explain hides user:user/home/.claude/skills/explain/SKILL.md",
				"go-review user user/config/skills/go-review",
			},
			[]string{"broken/SKILL.md: no YAML front matter"}},
		{"user only, no home", UserLocations(filepath.Join(user, "config"), ""),
			[]string{"explain user user/config/skills/explain", "go-review user user/config/skills/go-review"}, nil},
		{"missing folders are no problem", append(ProjectLocations([]string{t.TempDir()}), userLocs[3:]...), nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			found, problems := Discover(tt.locs)
			var got []string
			for _, sk := range found {
				got = append(got, brief(t, sk))
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("skills:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			if len(problems) != len(tt.problems) {
				t.Fatalf("problems = %v, want %d", problems, len(tt.problems))
			}
			for i, p := range problems {
				if !strings.Contains(p.String(), tt.problems[i]) {
					t.Errorf("problem %d = %q, want %q", i, p, tt.problems[i])
				}
			}
		})
	}
}

// write makes a file under dir with its folders.
func write(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// tempDir is a resolved t.TempDir.
func tempDir(t *testing.T) string {
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestDiscoverBounds(t *testing.T) {
	ok := "---\nname: %s\ndescription: d\n---\nbody\n"
	tests := []struct {
		name    string
		setup   func(t *testing.T, root string)
		skills  int
		problem string
	}{
		{"too many folders", func(t *testing.T, root string) {
			for i := range MaxFolders + 5 {
				n := strings.Repeat("a", 1+i/26) + string(rune('a'+i%26))
				write(t, root, ".companion/skills/"+n+"/SKILL.md", strings.Replace(ok, "%s", n, 1))
			}
		}, MaxFolders, "only 100 were looked at"},
		{"SKILL.md too large", func(t *testing.T, root string) {
			write(t, root, ".companion/skills/big/SKILL.md", strings.Replace(ok, "%s", "big", 1)+strings.Repeat("x", MaxFileSize))
		}, 0, "larger than 256 KiB"},
		{"folder leading outside the project", func(t *testing.T, root string) {
			outside := tempDir(t)
			write(t, outside, "SKILL.md", strings.Replace(ok, "%s", "away", 1))
			os.MkdirAll(filepath.Join(root, ".companion/skills"), 0o755)
			if err := os.Symlink(outside, filepath.Join(root, ".companion/skills/away")); err != nil {
				t.Skip(err)
			}
		}, 0, "must stay inside the project"},
		{"SKILL.md leading outside its folder", func(t *testing.T, root string) {
			other := write(t, root, "elsewhere.md", strings.Replace(ok, "%s", "link", 1))
			os.MkdirAll(filepath.Join(root, ".companion/skills/link"), 0o755)
			if err := os.Symlink(other, filepath.Join(root, ".companion/skills/link/SKILL.md")); err != nil {
				t.Skip(err)
			}
		}, 0, "leads outside its folder"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := tempDir(t)
			tt.setup(t, root)
			found, problems := Discover(ProjectLocations([]string{root}))
			if len(found) != tt.skills {
				t.Errorf("%d skills, want %d", len(found), tt.skills)
			}
			if len(problems) != 1 || !strings.Contains(problems[0].String(), tt.problem) {
				t.Errorf("problems = %v, want one with %q", problems, tt.problem)
			}
		})
	}
}

// catalogOf discovers the testdata skills (project trusted) into a catalog
// whose trust is *trusted.
func catalogOf(t *testing.T, trusted *bool) *Catalog {
	t.Helper()
	user := testdataDir(t, "user")
	found, _ := Discover(Locations([]string{testdataDir(t, "project")}, true, filepath.Join(user, "config"), ""))
	return NewCatalog(found, func() bool { return *trusted })
}

func TestActivate(t *testing.T) {
	trusted := true
	cat := catalogOf(t, &trusted)
	project := testdataDir(t, "project")
	roots, err := tools.NewRoots(project)
	if err != nil {
		t.Fatal(err)
	}
	act, err := cat.Activate(roots, "go-review")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(project, ".companion/skills/go-review")
	want := []string{filepath.Join(dir, "checklist.md"), filepath.Join(dir, "scripts/lint.sh")}
	if act.Body != "# Go review\nRead the diff, then check the tests." || !slices.Equal(act.Resources, want) {
		t.Errorf("body %q resources %v, want %v", act.Body, act.Resources, want)
	}
	text := act.Text()
	for _, s := range []string{"Read the diff", want[0], "read_file, grep", "grants nothing"} {
		if !strings.Contains(text, s) {
			t.Errorf("text lacks %q:\n%s", s, text)
		}
	}
	if strings.Contains(text, "name: go-review") || !cat.Activated("go-review") || cat.Activated("release") {
		t.Errorf("front matter kept, or activation not recorded:\n%s", text)
	}

	// A user skill outside the roots becomes readable, not writable.
	userRes := filepath.Join(testdataDir(t, "user"), "config/skills/explain/example.txt")
	if _, err := roots.Resolve(userRes); err == nil {
		t.Fatal("the user skill was readable before activation")
	}
	if _, err := cat.Activate(roots, "explain"); err != nil {
		t.Fatal(err)
	}
	if _, err := roots.Resolve(userRes); err != nil || roots.Contains(userRes) {
		t.Errorf("after activation: resolve err %v, writable %v", err, roots.Contains(userRes))
	}

	// Losing trust refuses project skills, not the user's.
	trusted = false
	if _, err := cat.Activate(roots, "release"); err == nil || !strings.Contains(err.Error(), "not trusted") {
		t.Errorf("untrusted project skill: err = %v", err)
	}
	if _, err := cat.Activate(roots, "explain"); err != nil {
		t.Errorf("user skill refused: %v", err)
	}
	if _, err := cat.Activate(roots, "nope"); err == nil {
		t.Error("unknown skill activated")
	}
}

func TestToolAsksOncePerSkill(t *testing.T) {
	trusted := true
	cat := catalogOf(t, &trusted)
	roots, err := tools.NewRoots(testdataDir(t, "project"))
	if err != nil {
		t.Fatal(err)
	}
	env := &tools.Env{Roots: roots}
	tool := cat.Tool()
	if !strings.Contains(string(tool.Schema()), `"enum":["explain","go-review","release"]`) {
		t.Errorf("schema = %s", tool.Schema())
	}
	if _, err := tool.Prepare(env, []byte(`{"name":"missing"}`)); err == nil || !strings.Contains(err.Error(), "skills: explain, go-review, release") {
		t.Errorf("unknown skill: %v", err)
	}
	ctx := context.Background()
	for i, want := range []bool{true, false} {
		inv, err := tool.Prepare(env, []byte(`{"name":"release"}`))
		if err != nil {
			t.Fatal(err)
		}
		conf, _ := inv.Confirmation(ctx)
		if (conf != nil) != want {
			t.Fatalf("call %d: confirmation %+v, want one: %v", i, conf, want)
		}
		if conf != nil && (conf.Type != tools.ConfirmInfo || !strings.Contains(conf.Prompt, "run_shell_command, write_file (this grants nothing")) {
			t.Errorf("confirmation = %+v", conf)
		}
		res, err := inv.Execute(ctx, nil)
		if err != nil || res.IsError || !strings.Contains(res.Text, "Tag, build, publish.") {
			t.Fatalf("call %d: %+v %v", i, res, err)
		}
	}
	if inv, _ := tool.Prepare(env, []byte(`{"name":"go-review"}`)); inv != nil {
		if conf, _ := inv.Confirmation(ctx); conf == nil {
			t.Error("another skill did not ask")
		}
	}
	trusted = false
	inv, _ := tool.Prepare(env, []byte(`{"name":"go-review"}`))
	if res, err := inv.Execute(ctx, nil); err != nil || !res.IsError || !strings.Contains(res.Text, "not trusted") {
		t.Errorf("untrusted: %+v %v", res, err)
	}
}

func TestNilCatalog(t *testing.T) {
	var c *Catalog
	if c.All() != nil || c.Summaries() != nil || c.Activated("x") {
		t.Error("a nil catalog holds something")
	}
	if _, ok := c.Get("x"); ok {
		t.Error("a nil catalog found a skill")
	}
}

func TestResources(t *testing.T) {
	tests := []struct {
		name      string
		files     []string
		want      int
		truncated bool
	}{
		{"hidden and SKILL.md left out", []string{"a.md", ".git/config", ".env", "sub/b.md"}, 2, false},
		{"too deep", []string{"1/2/3/ok.md", "1/2/3/4/deep.md"}, 1, false},
		{"too many", func() []string {
			var fs []string
			for i := range MaxResources + 5 {
				fs = append(fs, fmt.Sprintf("r%03d.txt", i))
			}
			return fs
		}(), MaxResources, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := tempDir(t)
			skill := write(t, dir, FileName, "x")
			for _, f := range tt.files {
				write(t, dir, f, "x")
			}
			got, truncated := resources(dir, skill)
			if len(got) != tt.want || truncated != tt.truncated {
				t.Errorf("got %d files (truncated %v), want %d (%v): %v", len(got), truncated, tt.want, tt.truncated, got)
			}
			for _, p := range got {
				if !filepath.IsAbs(p) || strings.Contains(p, "/.") || p == skill {
					t.Errorf("listed %s", p)
				}
			}
		})
	}
}
