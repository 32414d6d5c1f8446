package policy

import (
	"os"
	osexec "os/exec"
	"path/filepath"
	"slices"
	"testing"

	"companion/tools"
)

func testRoots(t *testing.T) (*tools.Roots, string) {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(dir, "src"), 0o755)
	roots, err := tools.NewRoots(dir)
	if err != nil {
		t.Fatal(err)
	}
	return roots, dir
}

func rules(t *testing.T, allow, ask, deny []string) Rules {
	t.Helper()
	var r Rules
	for _, set := range []struct {
		in  []string
		out *[]Rule
	}{{allow, &r.Allow}, {ask, &r.Ask}, {deny, &r.Deny}} {
		for _, s := range set.in {
			rule, err := ParseRule(s)
			if err != nil {
				t.Fatal(err)
			}
			*set.out = append(*set.out, rule)
		}
	}
	return r
}

func exec(cmds ...[]string) *tools.Confirmation {
	c := &tools.Confirmation{Type: tools.ConfirmExec, Parsed: true}
	for _, w := range cmds {
		c.Commands = append(c.Commands, tools.ShellCommand{Words: w})
		c.RootCommands = append(c.RootCommands, w[0])
	}
	return c
}

func edit(path string) *tools.Confirmation {
	return &tools.Confirmation{Type: tools.ConfirmEdit, Path: path, NewText: "x"}
}

func TestDecide(t *testing.T) {
	roots, root := testRoots(t)
	inRoot := filepath.Join(root, "src", "a.go")
	dynamic := exec([]string{"ls"})
	dynamic.Commands = append(dynamic.Commands, tools.ShellCommand{Words: []string{"$X"}, Dynamic: true})
	unparsed := &tools.Confirmation{Type: tools.ConfirmExec, Parsed: false, Command: "echo \"x"}
	redirectOut := exec([]string{"echo", "hi"})
	redirectOut.Redirects = []string{"/etc/passwd"}
	redirectIn := exec([]string{"echo", "hi"})
	redirectIn.Redirects = []string{"out.txt"}
	redirectHome := exec([]string{"echo", "hi"})
	redirectHome.Redirects = []string{"~/.bashrc"}
	allowGit := []string{"run_shell_command(git status)", "shell(npm test)", "edit(src/**)"}
	tests := []struct {
		name    string
		mode    string
		trusted bool
		allow   []string
		deny    []string
		ask     []string
		tool    string
		kind    tools.Kind
		conf    *tools.Confirmation
		want    Decision
	}{
		{"read-only allowed", ModeDefault, true, nil, nil, nil, "read_file", tools.KindRead, nil, Allow},
		{"read-only denied by rule", ModeDefault, true, nil, []string{"read_file"}, nil, "read_file", tools.KindRead, nil, Deny},
		{"edit asks by default", ModeDefault, true, nil, nil, nil, "replace", tools.KindEdit, edit(inRoot), Ask},
		{"edit auto_edit", ModeAutoEdit, true, nil, nil, nil, "replace", tools.KindEdit, edit(inRoot), Allow},
		{"edit yolo", ModeYolo, true, nil, nil, nil, "replace", tools.KindEdit, edit(inRoot), Allow},
		{"edit plan", ModePlan, true, nil, nil, nil, "replace", tools.KindEdit, edit(inRoot), Deny},
		{"edit outside roots asks in yolo", ModeYolo, true, nil, nil, nil, "write_file", tools.KindEdit, edit("/etc/hosts"), Ask},
		{"edit glob rule", ModeDefault, true, allowGit, nil, nil, "replace", tools.KindEdit, edit(inRoot), Allow},
		{"edit glob rule misses", ModeDefault, true, allowGit, nil, nil, "replace", tools.KindEdit, edit(filepath.Join(root, "b.go")), Ask},
		{"edit deny glob", ModeYolo, true, nil, []string{"edit(src/**)"}, nil, "replace", tools.KindEdit, edit(inRoot), Deny},
		{"untrusted yolo asks", ModeYolo, false, nil, nil, nil, "replace", tools.KindEdit, edit(inRoot), Ask},
		{"untrusted rule asks", ModeDefault, false, allowGit, nil, nil, "run_shell_command", tools.KindExecute, exec([]string{"git", "status"}), Ask},
		{"shell prefix rule", ModeDefault, true, allowGit, nil, nil, "run_shell_command", tools.KindExecute, exec([]string{"git", "status", "-s"}), Allow},
		{"shell prefix needs whole words", ModeDefault, true, allowGit, nil, nil, "run_shell_command", tools.KindExecute, exec([]string{"git", "statusx"}), Ask},
		{"shell every command must be allowed", ModeDefault, true, allowGit, nil, nil, "run_shell_command", tools.KindExecute, exec([]string{"git", "status"}, []string{"rm", "-rf", "/"}), Ask},
		{"shell all commands allowed", ModeDefault, true, allowGit, nil, nil, "run_shell_command", tools.KindExecute, exec([]string{"git", "status"}, []string{"npm", "test"}), Allow},
		{"shell deny one command", ModeYolo, true, nil, []string{"shell(rm)"}, nil, "run_shell_command", tools.KindExecute, exec([]string{"ls"}, []string{"rm", "x"}), Deny},
		{"shell yolo", ModeYolo, true, nil, nil, nil, "run_shell_command", tools.KindExecute, exec([]string{"make"}), Allow},
		{"shell auto_edit asks", ModeAutoEdit, true, nil, nil, nil, "run_shell_command", tools.KindExecute, exec([]string{"make"}), Ask},
		{"shell plan", ModePlan, true, nil, nil, nil, "run_shell_command", tools.KindExecute, exec([]string{"ls"}), Deny},
		{"unparsed asks in yolo", ModeYolo, true, []string{"run_shell_command"}, nil, nil, "run_shell_command", tools.KindExecute, unparsed, Ask},
		{"dynamic asks in yolo", ModeYolo, true, nil, nil, nil, "run_shell_command", tools.KindExecute, dynamic, Ask},
		{"redirect outside asks in yolo", ModeYolo, true, nil, nil, nil, "run_shell_command", tools.KindExecute, redirectOut, Ask},
		{"redirect to home asks", ModeYolo, true, nil, nil, nil, "run_shell_command", tools.KindExecute, redirectHome, Ask},
		{"redirect inside ok", ModeYolo, true, nil, nil, nil, "run_shell_command", tools.KindExecute, redirectIn, Allow},
		{"ask rule beats mode", ModeYolo, true, nil, nil, []string{"shell(git push)"}, "run_shell_command", tools.KindExecute, exec([]string{"git", "push"}), Ask},
		{"fetch asks", ModeDefault, true, nil, nil, nil, "web_fetch", tools.KindFetch, &tools.Confirmation{Type: tools.ConfirmInfo}, Ask},
		{"fetch allowed in plan (asks)", ModePlan, true, nil, nil, nil, "web_fetch", tools.KindFetch, &tools.Confirmation{Type: tools.ConfirmInfo}, Ask},
		{"fetch rule", ModeDefault, true, []string{"web_fetch"}, nil, nil, "web_fetch", tools.KindFetch, &tools.Confirmation{Type: tools.ConfirmInfo}, Allow},
		{"mcp server rule", ModeDefault, true, []string{"mcp(github)"}, nil, nil, "mcp_github_list", tools.KindOther, &tools.Confirmation{Type: tools.ConfirmMCP, Server: "github", Tool: "list"}, Allow},
		{"mcp tool rule other tool", ModeDefault, true, []string{"mcp(github/list)"}, nil, nil, "mcp_github_push", tools.KindOther, &tools.Confirmation{Type: tools.ConfirmMCP, Server: "github", Tool: "push"}, Ask},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := New(Options{Mode: tt.mode, Trusted: tt.trusted, Roots: roots, Rules: rules(t, tt.allow, tt.ask, tt.deny)})
			v := p.Decide(Call{Tool: tt.tool, Kind: tt.kind, Confirm: tt.conf})
			if v.Decision != tt.want {
				t.Errorf("Decide = %v (%s), want %v", v.Decision, v.Reason, tt.want)
			}
		})
	}
}

func TestRememberAlways(t *testing.T) {
	roots, root := testRoots(t)
	p := New(Options{Trusted: true, Roots: roots})
	call := Call{Tool: "run_shell_command", Kind: tools.KindExecute, Confirm: exec([]string{"go", "test", "./..."}), Root: root}
	if v := p.Decide(call); v.Decision != Ask {
		t.Fatalf("before: %v", v.Decision)
	}
	p.Remember(true, AlwaysRules(call, ScopeThis)...)
	if v := p.Decide(call); v.Decision != Allow {
		t.Errorf("after allow always: %v", v.Decision)
	}
	other := Call{Tool: "run_shell_command", Kind: tools.KindExecute, Confirm: exec([]string{"go", "vet"}, []string{"rm", "-rf", "x"})}
	if v := p.Decide(other); v.Decision != Ask {
		t.Errorf("a line with another program must still ask: %v", v.Decision)
	}
	e := Call{Tool: "replace", Kind: tools.KindEdit, Confirm: edit(filepath.Join(root, "src", "a.go")), Root: root}
	p.Remember(false, AlwaysRules(e, ScopeThis)...)
	if v := p.Decide(e); v.Decision != Deny {
		t.Errorf("after reject always: %v", v.Decision)
	}
	if got := AlwaysRules(e, ScopeThis)[0].String(); got != "edit(src/a.go)" {
		t.Errorf("edit rule = %q", got)
	}
}

func TestParseRule(t *testing.T) {
	for _, tc := range []struct {
		in, tool, pattern string
		bad               bool
	}{
		{"read_file", "read_file", "", false},
		{"run_shell_command(git status)", "run_shell_command", "git status", false},
		{" edit( src/** ) ", "edit", "src/**", false},
		{"shell(git", "", "", true},
		{"(x)", "", "", true},
	} {
		r, err := ParseRule(tc.in)
		if (err != nil) != tc.bad || (!tc.bad && (r.Tool != tc.tool || r.Pattern != tc.pattern)) {
			t.Errorf("ParseRule(%q) = %+v, %v", tc.in, r, err)
		}
	}
}

// TestAllowByProgram: an allow rule names the program PATH finds. The same
// program by another path is covered; a program of the same name
// elsewhere (./ls, /tmp/evil/ls) is not.
func TestAllowByProgram(t *testing.T) {
	roots, root := testRoots(t)
	for _, name := range []string{"ls", filepath.Join("evil", "ls")} {
		p := filepath.Join(root, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	p := New(Options{Trusted: true, Roots: roots, Rules: rules(t, []string{"shell(ls)", "shell(git status)"}, nil, nil)})
	tests := []struct {
		line string
		want Decision
	}{
		{"ls -la", Allow},
		{"./ls -la", Ask},
		{"evil/ls", Ask},
		{filepath.Join(root, "evil", "ls"), Ask},
		{"/tmp/nonexistent-companion/ls", Ask},
		{"git status", Allow},
		{"git -c core.fsmonitor=x status", Ask},
		{"git status --porcelain", Allow},
	}
	if ls, err := osexec.LookPath("ls"); err == nil {
		tests = append(tests, struct {
			line string
			want Decision
		}{ls + " -la", Allow})
	}
	for _, tt := range tests {
		if v := p.Decide(shellCall(tt.line, root)); v.Decision != tt.want {
			t.Errorf("%q: %v (%s), want %v", tt.line, v.Decision, v.Reason, tt.want)
		}
	}
}

// TestAlwaysRulesNarrow: an "always" answer remembers each command as
// narrowly as its label says: the program, with its subcommand for tools
// that have them; nothing for commands no rule may cover.
func TestAlwaysRulesNarrow(t *testing.T) {
	_, root := testRoots(t)
	tests := []struct {
		line string
		want []string
	}{
		{"ls -la && cat f", []string{"shell(ls)", "shell(cat)"}},
		{"git status && git diff HEAD", []string{"shell(git status)", "shell(git diff)"}},
		{"git -C src log --oneline", []string{"shell(git -C src log)"}},
		{"npm run build && npm test", []string{"shell(npm run build)", "shell(npm test)"}},
		{"go test ./... | tee out", []string{"shell(go test)", "shell(tee)"}},
		{"docker --context x ps", []string{"shell(docker --context x ps)"}},
		{"git -c core.pager=x log", nil},
		{"$CMD x", nil},
		{"sudo ls", []string{"shell(sudo)", "shell(ls)"}},
		{"make CC=x", nil},
		{"make test", []string{"shell(make test)"}},
	}
	for _, tt := range tests {
		var got []string
		for _, r := range AlwaysRules(shellCall(tt.line, root), ScopeThis) {
			got = append(got, r.String())
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("AlwaysRules(%q) = %q, want %q", tt.line, got, tt.want)
		}
	}
}

func TestTrustRefusesUnsafeModes(t *testing.T) {
	roots, err := tools.NewRoots(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	p := New(Options{Mode: ModeYolo, Trusted: true, Roots: roots})
	if dropped := p.SetTrusted(false); !dropped || p.Mode() != ModeDefault || p.Trusted() {
		t.Fatalf("SetTrusted(false) = %v, mode %q, trusted %v; want dropped to default", dropped, p.Mode(), p.Trusted())
	}
	for _, m := range []string{ModeYolo, ModeAutoEdit} {
		p.SetMode(m)
		if p.Mode() != ModeDefault {
			t.Errorf("untrusted SetMode(%s) switched to %q", m, p.Mode())
		}
	}
	p.SetMode(ModePlan)
	if p.Mode() != ModePlan {
		t.Errorf("untrusted SetMode(plan) = %q", p.Mode())
	}
	if p.SetTrusted(true) || !p.Trusted() {
		t.Error("SetTrusted(true) dropped a mode or did not trust")
	}
	p.SetMode(ModeYolo)
	if p.Mode() != ModeYolo {
		t.Errorf("trusted SetMode(yolo) = %q", p.Mode())
	}
	if New(Options{Mode: ModeAutoEdit, Roots: roots}).Mode() != ModeDefault {
		t.Error("New untrusted kept auto_edit")
	}
}
