package policy

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"companion/tools"
	"companion/tools/shell"
)

// protectTree builds base/ws (the root) and base/outside with the links
// the protection tests go through, and returns the root's Roots, the root
// and the outside folder.
func protectTree(t *testing.T) (*tools.Roots, string, string) {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ws, outside := filepath.Join(base, "ws"), filepath.Join(base, "outside")
	for _, d := range []string{filepath.Join(outside, "deep"), filepath.Join(ws, "src"), filepath.Join(ws, "sub"),
		filepath.Join(ws, ".git", "hooks"), filepath.Join(ws, ".companion")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, text := range map[string]string{".git/config": "[core]\n", ".companion/settings.json": "{}"} {
		if err := os.WriteFile(filepath.Join(ws, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{
		"link":        filepath.Join(outside, "deep"),
		"dangling":    filepath.Join(outside, "new.txt"),
		"dangling_in": "fresh.txt",
		"inlink":      "sub",
		"sub/uplink":  "..",
		"gitlink":     ".git",
		"cfglink":     ".git/config",
		"cfgabs":      filepath.Join(ws, ".git", "config"),
		"loop1":       "loop2",
		"loop2":       "loop1",
		"cwdlink":     "/proc/self/cwd",
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(ws, name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Link(filepath.Join(ws, ".git", "config"), filepath.Join(ws, "hardlink")); err != nil {
		t.Fatal(err)
	}
	roots, err := tools.NewRoots(ws)
	if err != nil {
		t.Fatal(err)
	}
	return roots, ws, outside
}

// shellCall builds the confirmation the shell tool makes for line.
func shellCall(line, dir string) Call {
	a := shell.Analyze(line)
	conf := &tools.Confirmation{Type: tools.ConfirmExec, Command: line, Dir: dir, Parsed: a.Parsed,
		RootCommands: a.RootCommands, Redirects: a.Redirects}
	for _, c := range a.Commands {
		conf.Commands = append(conf.Commands, tools.ShellCommand(c))
	}
	return Call{Tool: "run_shell_command", Kind: tools.KindExecute, Confirm: conf}
}

// TestRedirectResolvesLikeKernel: redirect targets are resolved as bash's
// open will resolve them, symlink by symlink, so "link/.." leaves the
// workspace when link points outside. Every line runs only allowed
// programs; only the target decides.
func TestRedirectResolvesLikeKernel(t *testing.T) {
	roots, ws, _ := protectTree(t)
	allow := []string{"shell(ls)", "shell(echo)"}
	tests := []struct {
		line string
		want Decision
	}{
		{"ls > link/../PWNED", Ask},
		{"ls >| link/../PWNED", Ask},
		{"ls >> link/../PWNED", Ask},
		{"ls &> link/../PWNED", Ask},
		{"ls &>> link/../PWNED", Ask},
		{"ls 1<> link/../PWNED", Ask},
		{"ls >& link/../PWNED", Ask},
		{"ls 2> link/../PWNED", Ask},
		{"ls > ./link/./../PWNED", Ask},
		{"ls > link//../PWNED", Ask},
		{"ls > link/../../PWNED", Ask},
		{"ls > link/x", Ask},
		{"ls > 'link'/../PWNED", Ask},
		{"ls > dangling", Ask},
		{"ls > sub/uplink/../PWNED", Ask},
		{"ls > inlink/uplink/../PWNED", Ask},
		{"ls > loop1/x", Ask},
		{"ls > /proc/self/cwd/../PWNED", Ask},
		{"ls > /proc/self/cwd/x", Ask},
		{"ls > cwdlink/x", Ask},
		{"ls > /proc/self/root" + ws + "/x", Ask},
		{"ls > /dev/fd/3", Ask},
		{"ls > /dev/stdin", Ask},
		{"ls > ~/x", Ask},
		{"ls > $HOME/x", Ask},
		{"ls > ${HOME}/x", Ask},
		{"ls > " + ws + "/link/../PWNED", Ask},
		{"echo hi > out.txt", Allow},
		{"echo hi > sub/../out.txt", Allow},
		{"echo hi > inlink/x.txt", Allow},
		{"echo hi > inlink/../x.txt", Allow},
		{"echo hi > dangling_in", Allow},
		{"echo hi >> src/new.txt", Allow},
		{"echo hi > " + ws + "/src/abs.txt", Allow},
		{"echo hi > /dev/null", Allow},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			p := New(Options{Trusted: true, Roots: roots, Rules: rules(t, allow, nil, nil)})
			v := p.Decide(shellCall(tt.line, ws))
			if v.Decision != tt.want {
				t.Errorf("Decide = %v (%s), want %v", v.Decision, v.Reason, tt.want)
			}
		})
	}
}

// TestRedirectFromSymlinkedDir: the command's own directory is resolved
// first, so ".." from a folder reached through a link is the link
// target's parent.
func TestRedirectFromSymlinkedDir(t *testing.T) {
	roots, ws, _ := protectTree(t)
	p := New(Options{Trusted: true, Roots: roots, Rules: rules(t, []string{"shell(ls)"}, nil, nil)})
	for _, tt := range []struct {
		dir, line string
		want      Decision
	}{
		{filepath.Join(ws, "inlink"), "ls > ../x", Allow},
		{filepath.Join(ws, "inlink"), "ls > uplink/../x", Ask},
		{"sub", "ls > ../x", Allow},
		{"", "ls > x", Allow},
	} {
		if v := p.Decide(shellCall(tt.line, tt.dir)); v.Decision != tt.want {
			t.Errorf("%q in %q: %v (%s), want %v", tt.line, tt.dir, v.Decision, v.Reason, tt.want)
		}
	}
}

// TestProtectedFiles: files that grant powers are asked about in every
// mode but yolo, whatever rules and "always" answers allow, under every
// spelling of their path: edits and shell redirects alike.
func TestProtectedFiles(t *testing.T) {
	roots, ws, _ := protectTree(t)
	type row struct {
		path string
		want Decision
	}
	rows := []row{
		{".git/config", Ask},
		{".GIT/CONFIG", Ask},
		{"./.git/../.git/config", Ask},
		{"src/../.git/config", Ask},
		{".git/hooks/pre-commit", Ask},
		{".git", Ask},
		{"gitlink/config", Ask},
		{"cfglink", Ask},
		{"cfgabs", Ask},
		{"hardlink", Ask},
		{"sub/.git/config", Ask},
		{".companion/settings.json", Ask},
		{".Companion/Settings.json", Ask},
		{".companion/hooks/pre.sh", Ask},
		{".companion/commands/x.toml", Ask},
		{".companion/agents/a.md", Ask},
		{".gemini/settings.json", Ask},
		{".gemini/commands/deploy.toml", Ask},
		{".claude/settings.json", Ask},
		{".claude/settings.local.json", Ask},
		{".claude/skills/x/SKILL.md", Ask},
		{".mcp.json", Ask},
		{".vscode/settings.json", Ask},
		{".vscode/tasks.json", Ask},
		{".vscode/launch.json", Ask},
		{"app.code-workspace", Ask},
		{".devcontainer/devcontainer.json", Ask},
		{".env", Ask},
		{".env.local", Ask},
		{".envrc", Ask},
		{".npmrc", Ask},
		{".yarnrc.yml", Ask},
		{".gitconfig", Ask},
		{".husky/pre-commit", Ask},
		{".pre-commit-config.yaml", Ask},
		{".bashrc", Ask},
		{".config/companion/settings.json", Ask},
		{".config/git/config", Ask},
		{".ssh/authorized_keys", Ask},
		{"src/main.go", Allow},
		{".env.example", Allow},
		{".gitignore", Allow},
		{"AGENTS.md", Allow},
		{"src/git/config", Allow},
		{"companion/settings.json", Allow},
		{".envs/x", Allow},
	}
	allowAll := []string{"edit", "shell(echo)"}
	for _, r := range rows {
		for _, mode := range []string{ModeDefault, ModeAutoEdit, ModeYolo} {
			want := r.want
			if mode == ModeYolo {
				want = Allow
			}
			calls := map[string]Call{
				"edit":     {Tool: "write_file", Kind: tools.KindEdit, Confirm: edit(filepath.Join(ws, r.path))},
				"redirect": shellCall("echo x > "+r.path, ws),
			}
			for form, call := range calls {
				p := New(Options{Mode: mode, Trusted: true, Roots: roots, Rules: rules(t, allowAll, nil, nil)})
				p.Remember(true, AlwaysRules(Call{Tool: call.Tool, Kind: call.Kind, Confirm: call.Confirm, Root: ws}, ScopeThis)...)
				v := p.Decide(call)
				if v.Decision != want {
					t.Errorf("%s %s in %s: %v (%s), want %v", form, r.path, mode, v.Decision, v.Reason, want)
				}
				if v.Decision == Ask && !strings.Contains(v.Reason, "asked every time") {
					t.Errorf("%s %s in %s: reason %q does not say why", form, r.path, mode, v.Reason)
				}
			}
		}
	}
}

// TestProtectedDenyAndPlan: deny rules and plan mode still win over the
// protection's question.
func TestProtectedDenyAndPlan(t *testing.T) {
	roots, ws, _ := protectTree(t)
	call := Call{Tool: "write_file", Kind: tools.KindEdit, Confirm: edit(filepath.Join(ws, ".git", "config"))}
	if v := New(Options{Trusted: true, Roots: roots, Rules: rules(t, nil, nil, []string{"edit(.git/**)"})}).Decide(call); v.Decision != Deny {
		t.Errorf("deny rule: %v", v.Decision)
	}
	if v := New(Options{Mode: ModePlan, Trusted: true, Roots: roots}).Decide(call); v.Decision != Deny {
		t.Errorf("plan mode: %v", v.Decision)
	}
}

// TestKernelPath checks the resolver against what open(2) would reach.
func TestKernelPath(t *testing.T) {
	_, ws, outside := protectTree(t)
	base := filepath.Dir(ws)
	tests := []struct {
		dir, path, want string
		bad             bool
	}{
		{ws, "a/b", filepath.Join(ws, "a", "b"), false},
		{ws, "link/../PWNED", filepath.Join(outside, "PWNED"), false},
		{ws, "link/../../x", filepath.Join(base, "x"), false},
		{ws, "dangling", filepath.Join(outside, "new.txt"), false},
		{ws, "sub/uplink/../x", filepath.Join(base, "x"), false},
		{ws, "gitlink/config", filepath.Join(ws, ".git", "config"), false},
		{filepath.Join(ws, "inlink"), "..", ws, false},
		{ws, "/a/../b", "/b", false},
		{ws, "missing/../x", filepath.Join(ws, "x"), false},
		{ws, "loop1", "", true},
		{ws, "/proc/self/cwd/x", "", true},
		{ws, "cwdlink/x", "", true},
		{ws, "/dev/fd/1", "", true},
	}
	for _, tt := range tests {
		got, err := kernelPath(tt.dir, tt.path)
		if (err != nil) != tt.bad || got != tt.want {
			t.Errorf("kernelPath(%q, %q) = %q, %v; want %q (error %v)", tt.dir, tt.path, got, err, tt.want, tt.bad)
		}
	}
}

// TestProtectedNamesAgree ties the glob list of protect_args.go to the
// names protectedWhy knows, so a name added to one is not missed by the
// other.
func TestProtectedNamesAgree(t *testing.T) {
	for _, n := range protectedNames {
		if protectedWhy(n) == "" && protectedWhy(n+"/x") == "" {
			t.Errorf("%s is in protectedNames but protectedWhy does not protect it", n)
		}
	}
}
