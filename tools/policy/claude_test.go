package policy

import (
	"path/filepath"
	"testing"

	"companion/tools"
)

// TestParseRuleAt: Claude Code's rules become the companion rules that
// mean the same; companion's stay; a rule naming no tool is an error.
func TestParseRuleAt(t *testing.T) {
	t.Parallel()
	at := Place{Dir: "/proj/.claude", Home: "/home/u"}
	tests := []struct {
		in   string
		want Rule
		err  bool
	}{
		{in: "Bash(npm run test:*)", want: Rule{Tool: "shell", Pattern: "npm run test"}},
		{in: "Bash(git status)", want: Rule{Tool: "shell", Pattern: "git status", Exact: true}},
		{in: "Bash", want: Rule{Tool: "shell"}},
		{in: "Bash(*)", want: Rule{Tool: "shell"}},
		{in: "Bash(git * main)", err: true},
		{in: "Read(./.env)", want: Rule{Tool: "read", Pattern: ".env", Tree: true}},
		{in: "Read(.env)", want: Rule{Tool: "read", Pattern: "**/.env", Tree: true}},
		{in: "Read(//etc/passwd)", want: Rule{Tool: "read", Pattern: "/etc/passwd", Tree: true}},
		{in: "Read(~/.ssh/**)", want: Rule{Tool: "read", Pattern: "/home/u/.ssh/**", Tree: true}},
		{in: "Edit(/docs/**)", want: Rule{Tool: "edit", Pattern: "/proj/.claude/docs/**", Tree: true}},
		{in: "Edit(src/**)", want: Rule{Tool: "edit", Pattern: "src/**", Tree: true}},
		{in: "Write", want: Rule{Tool: "edit"}},
		{in: "WebFetch(domain:example.com)", want: Rule{Tool: "web_fetch", Pattern: "example.com"}},
		{in: "WebFetch(example.com)", err: true},
		{in: "mcp__github", want: Rule{Tool: "mcp", Pattern: "github"}},
		{in: "mcp__github__create_issue", want: Rule{Tool: "mcp", Pattern: "github/create_issue"}},
		{in: "Grep", want: Rule{Tool: "grep"}},
		{in: "TodoWrite", want: Rule{Tool: "write_todos"}},
		{in: "WebSearch", want: Rule{Tool: "google_web_search"}},
		{in: "NotebookRead", want: Rule{Tool: "NotebookRead"}},
		{in: "run_shell_command(git status)", want: Rule{Tool: "run_shell_command", Pattern: "git status"}},
		{in: "edit(src/**)", want: Rule{Tool: "edit", Pattern: "src/**"}},
		{in: "mcp_db_query", want: Rule{Tool: "mcp_db_query"}},
		{in: "Bsh(rm:*)", err: true},
		{in: "shel(rm)", err: true},
	}
	for _, tt := range tests {
		got, err := ParseRuleAt(tt.in, at, nil)
		got.text = ""
		if (err != nil) != tt.err || (err == nil && got != tt.want) {
			t.Errorf("ParseRuleAt(%q) = %+v, %v; want %+v (error %v)", tt.in, got, err, tt.want, tt.err)
		}
	}
}

// TestDecideClaudeRules: translated rules decide as Claude Code's do:
// deny over ask over allow, in every mode; prefix and exact commands;
// Read rules on the paths a reading tool reads.
func TestDecideClaudeRules(t *testing.T) {
	t.Parallel()
	roots, root := testRoots(t)
	parse := func(ss ...string) []Rule {
		var out []Rule
		for _, s := range ss {
			r, err := ParseRuleAt(s, Place{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, r)
		}
		return out
	}
	read := func(p string) Call {
		return Call{Tool: "read_file", Kind: tools.KindRead, Paths: []string{filepath.Join(root, p)}}
	}
	shell := func(cmds ...[]string) Call { return Call{Tool: "run_shell_command", Confirm: exec(cmds...)} }
	tests := []struct {
		name  string
		rules Rules
		mode  string
		call  Call
		want  Decision
	}{
		{"deny rm inside a list, yolo", Rules{Deny: parse("Bash(rm:*)")}, ModeYolo, shell([]string{"ls"}, []string{"rm", "-rf", "x"}), Deny},
		{"exact deny also denies longer", Rules{Deny: parse("Bash(rm)")}, ModeYolo, shell([]string{"rm", "-rf", "x"}), Deny},
		{"exact allow", Rules{Allow: parse("Bash(git status)")}, ModeDefault, shell([]string{"git", "status"}), Allow},
		{"exact allow, more words", Rules{Allow: parse("Bash(git status)")}, ModeDefault, shell([]string{"git", "status", "-s"}), Ask},
		{"prefix allow", Rules{Allow: parse("Bash(npm run test:*)")}, ModeDefault, shell([]string{"npm", "run", "test", "--", "-u"}), Allow},
		{"ask over allow", Rules{Allow: parse("Bash"), Ask: parse("Bash(git push:*)")}, ModeDefault, shell([]string{"git", "push"}), Ask},
		{"Read deny", Rules{Deny: parse("Read(./.env)")}, ModeYolo, read(".env"), Deny},
		{"Read deny, other file", Rules{Deny: parse("Read(./.env)")}, ModeYolo, read("a.txt"), Allow},
		{"Read deny, folder", Rules{Deny: parse("Read(./secrets)")}, ModeYolo, read("secrets/key"), Deny},
		{"Edit deny", Rules{Deny: parse("Edit(src/**)")}, ModeYolo, Call{Tool: "write_file", Kind: tools.KindEdit, Confirm: edit(filepath.Join(root, "src", "a.go"))}, Deny},
		{"only: tool left out", Rules{Only: parse("read_file")}, ModeYolo, shell([]string{"ls"}), Deny},
		{"only: tool in", Rules{Only: parse("read_file")}, ModeYolo, read("a.txt"), Allow},
	}
	for _, tt := range tests {
		p := New(Options{Mode: tt.mode, Trusted: true, Roots: roots, Rules: tt.rules})
		if got := p.Decide(tt.call); got.Decision != tt.want {
			t.Errorf("%s: %v (%s), want %v", tt.name, got.Decision, got.Reason, tt.want)
		}
	}
}

// TestReadDenied: a deny rule with a path hides the files it covers from
// the searching tools (each file of a walk is asked about), whichever
// tool walks for a Read rule, only the tool it names otherwise; a rule
// without a path, or an allow rule, hides nothing.
func TestReadDenied(t *testing.T) {
	t.Parallel()
	roots, root := testRoots(t)
	rule := func(s string) []Rule {
		r, err := ParseRuleAt(s, Place{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return []Rule{r}
	}
	tests := []struct {
		name  string
		rules Rules
		tool  string
		file  string
		want  bool
	}{
		{"Read(./.env), grep", Rules{Deny: rule("Read(./.env)")}, "grep", ".env", true},
		{"Read(./.env), glob", Rules{Deny: rule("Read(./.env)")}, "glob", ".env", true},
		{"Read(./.env), read_many_files", Rules{Deny: rule("Read(./.env)")}, "read_many_files", ".env", true},
		{"Read(./.env), other file", Rules{Deny: rule("Read(./.env)")}, "grep", "notes.txt", false},
		{"Read(.env) at any depth", Rules{Deny: rule("Read(.env)")}, "grep", "sub/.env", true},
		{"Read(./secrets) folder", Rules{Deny: rule("Read(./secrets)")}, "grep", "secrets/deep/key", true},
		{"Grep(./secrets) for grep", Rules{Deny: rule("Grep(./secrets)")}, "grep", "secrets/key", true},
		{"Grep(./secrets) not for glob", Rules{Deny: rule("Grep(./secrets)")}, "glob", "secrets/key", false},
		{"Read without a path", Rules{Deny: rule("Read")}, "grep", ".env", false},
		{"allow rule", Rules{Allow: rule("Read(./.env)")}, "grep", ".env", false},
	}
	for _, tt := range tests {
		p := New(Options{Mode: ModeDefault, Trusted: true, Roots: roots, Rules: tt.rules})
		if got := p.ReadDenied(tt.tool, filepath.Join(root, tt.file)); got != tt.want {
			t.Errorf("%s: ReadDenied(%s, %s) = %v, want %v", tt.name, tt.tool, tt.file, got, tt.want)
		}
	}
	p := New(Options{Mode: ModeDefault, Trusted: true, Roots: roots})
	p.Remember(false, rule("Read(./.env)")...)
	if !p.ReadDenied("grep", filepath.Join(root, ".env")) {
		t.Error("a session deny rule does not hide the file")
	}
}
