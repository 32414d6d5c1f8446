package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Settings written by Claude Code and Gemini CLI, as those tools write
// them, read by the real binary (issue 29, items 1 and 3).

// homeOf is the HOME of an environment made by env.
func homeOf(e []string) string { return strings.TrimPrefix(e[0], "HOME=") }

// writeAt writes content at base/rel, making its folders.
func writeAt(t *testing.T, base, rel, content string) {
	t.Helper()
	p := filepath.Join(base, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// shellRun runs `companion -p` with a model that runs line once; mode
// flags come in extra.
func shellRun(t *testing.T, e []string, ws, line string, extra ...string) string {
	t.Helper()
	sc := script(t, `{"turns":[{"chunks":[`+shellCall(line)+`]},{"chunks":[{"text":"done"}]}],"fallback":"error"}`)
	o := runCompanion(t, runOpts{env: e, dir: ws, args: append([]string{"-p", "go", "--output-format", "json", "--script", sc}, extra...)})
	if o.Code != 0 {
		t.Fatalf("run failed:\n%s", o)
	}
	return o.Stdout + o.Stderr
}

// TestClaudeDenyRules: a deny rule in Claude Code's syntax, wherever it is
// written, stops `rm` inside a longer line even in yolo mode; without it
// the same run removes the file.
func TestClaudeDenyRules(t *testing.T) {
	t.Parallel()
	const claudeDeny = "{\n  \"permissions\": {\n    \"deny\": [\n      \"Bash(rm:*)\"\n    ]\n  }\n}\n"
	tests := []struct {
		name      string
		home, ws  map[string]string // files under HOME and the workspace
		companion string            // companion's user settings
		removed   bool
	}{
		{name: "no rule", removed: true},
		{name: "companion's settings", companion: `{"permissions": {"deny": ["Bash(rm:*)"]}}`},
		{name: "~/.claude/settings.json", home: map[string]string{".claude/settings.json": claudeDeny}},
		{name: ".claude/settings.json", ws: map[string]string{".claude/settings.json": claudeDeny}},
		{name: ".claude/settings.local.json", ws: map[string]string{".claude/settings.local.json": claudeDeny}},
		{name: "Gemini CLI tools.exclude", home: map[string]string{".gemini/settings.json": `{"tools": {"exclude": ["run_shell_command(rm)"]}}`}},
		{name: "Gemini CLI project tools.exclude", ws: map[string]string{".gemini/settings.json": `{"tools": {"exclude": ["run_shell_command(rm)"]}}`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := env(t)
			if tt.companion != "" {
				e = withSettings(t, e, tt.companion)
			}
			for rel, c := range tt.home {
				writeAt(t, homeOf(e), rel, c)
			}
			ws := workspace(t, map[string]string{"victim/file": "keep me"})
			for rel, c := range tt.ws {
				writeAt(t, ws, rel, c)
			}
			out := shellRun(t, e, ws, "ls && rm -rf victim", "-y")
			_, err := os.Stat(filepath.Join(ws, "victim", "file"))
			if removed := err != nil; removed != tt.removed {
				t.Errorf("victim removed = %v, want %v\n%s", removed, tt.removed, out)
			}
		})
	}
}

// TestClaudeAllowRules: Claude Code's exact and prefix Bash rules allow
// what they name and nothing more; a project's allow rule waits until
// the user accepts the project's settings.
func TestClaudeAllowRules(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		home, ws string // ~/.claude/settings.json, .claude/settings.json
		line     string
		made     bool
	}{
		{"exact rule, same command", `{"permissions": {"allow": ["Bash(touch made)"]}}`, "", "touch made", true},
		{"exact rule, more words", `{"permissions": {"allow": ["Bash(touch made)"]}}`, "", "touch made other", false},
		{"prefix rule", `{"permissions": {"allow": ["Bash(touch:*)"]}}`, "", "touch made other", true},
		{"prefix rule, other program in the line", `{"permissions": {"allow": ["Bash(touch:*)"]}}`, "", "touch made && rm -f x", false},
		{"ask beats allow", `{"permissions": {"allow": ["Bash(touch:*)"], "ask": ["Bash(touch made)"]}}`, "", "touch made", false},
		{"project allow held back", "", `{"permissions": {"allow": ["Bash(touch:*)"]}}`, "touch made", false},
		{"allow rule companion cannot read is left out", `{"permissions": {"allow": ["Bash(touch * x)"]}}`, "", "touch made", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := env(t)
			if tt.home != "" {
				writeAt(t, homeOf(e), ".claude/settings.json", tt.home)
			}
			ws := workspace(t, nil)
			if tt.ws != "" {
				writeAt(t, ws, ".claude/settings.json", tt.ws)
			}
			out := shellRun(t, e, ws, tt.line)
			_, err := os.Stat(filepath.Join(ws, "made"))
			if made := err == nil; made != tt.made {
				t.Errorf("made = %v, want %v\n%s", made, tt.made, out)
			}
		})
	}
}

// TestClaudeReadDeny: Read(./.env) in .claude/settings.json keeps the
// file's content from the model; another file is read.
func TestClaudeReadDeny(t *testing.T) {
	t.Parallel()
	for _, file := range []string{".env", "notes.txt"} {
		ws := workspace(t, map[string]string{".env": "TOKEN=SECRET-IN-ENV", "notes.txt": "PLAIN-NOTES",
			".claude/settings.json": `{"permissions": {"deny": ["Read(./.env)"]}}`})
		sc := script(t, `{"turns":[{"chunks":[`+modelCall("read_file", map[string]any{"file_path": file})+`]},{"chunks":[{"text":"done"}]}]}`)
		o := runCompanion(t, runOpts{dir: ws, args: []string{"-p", "go", "--output-format", "json", "--script", sc, "-y"}})
		r := jsonResult(t, o)
		if len(r.ToolCalls) != 1 {
			t.Fatalf("tool calls %+v", r.ToolCalls)
		}
		got := r.ToolCalls[0].Output
		switch file {
		case ".env":
			if strings.Contains(got, "SECRET-IN-ENV") || !r.ToolCalls[0].IsError {
				t.Errorf(".env was read despite Read(./.env): %q", got)
			}
		default:
			if !strings.Contains(got, "PLAIN-NOTES") {
				t.Errorf("notes.txt not read: %q", got)
			}
		}
	}
}

// TestRuleNamingNoTool: a rule whose tool is unknown stops the run with
// the file and line it is written on, in companion's settings and in
// Claude Code's.
func TestRuleNamingNoTool(t *testing.T) {
	t.Parallel()
	const bad = "{\n  \"permissions\": {\n    \"deny\": [\"Bsh(rm:*)\"]\n  }\n}\n"
	for _, where := range []string{".claude/settings.json", ".companion/settings.json"} {
		ws := workspace(t, map[string]string{where: bad})
		sc := script(t, `{"turns":[{"chunks":[{"text":"done"}]}]}`)
		o := runCompanion(t, runOpts{dir: ws, args: []string{"-p", "go", "--script", sc}})
		if o.Code == 0 || !strings.Contains(o.Stderr, filepath.Join(ws, where)+":3") || !strings.Contains(o.Stderr, "Bsh(rm:*)") {
			t.Errorf("%s: want a failed run naming the file, line 3 and the rule:\n%s", where, o)
		}
		show := exec.Command(companionBin(t), "config", "show", "--dir", ws)
		show.Env = env(t)
		if out, _ := show.CombinedOutput(); !strings.Contains(string(out), filepath.Join(ws, where)+":3") {
			t.Errorf("config show does not report the rule:\n%s", out)
		}
	}
}

// TestGeminiSettingsRead: Gemini CLI's tools.core, tools.allowed and
// general.defaultApprovalMode act; the keys companion does not support
// are named by `companion config show` and at start-up.
func TestGeminiSettingsRead(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, settings, line string
		made                 bool
	}{
		{"nothing set: asked, refused", `{}`, "touch made", false},
		{"tools.allowed", `{"tools": {"allowed": ["run_shell_command(touch)"]}}`, "touch made", true},
		{"defaultApprovalMode auto_edit does not run commands", `{"general": {"defaultApprovalMode": "auto_edit"}}`, "touch made", false},
		{"tools.core leaves the shell out, even in yolo", `{"general": {"defaultApprovalMode": "yolo"}, "tools": {"core": ["read_file"]}}`, "touch made", false},
		{"tools.core with the command", `{"general": {"defaultApprovalMode": "yolo"}, "tools": {"core": ["run_shell_command(touch)"]}}`, "touch made", true},
		{"defaultApprovalMode yolo", `{"general": {"defaultApprovalMode": "yolo"}}`, "touch made", true},
	}
	for _, tt := range tests {
		e := env(t)
		writeAt(t, homeOf(e), ".gemini/settings.json", tt.settings)
		ws := workspace(t, nil)
		out := shellRun(t, e, ws, tt.line)
		if _, err := os.Stat(filepath.Join(ws, "made")); (err == nil) != tt.made {
			t.Errorf("%s: made = %v, want %v\n%s", tt.name, err == nil, tt.made, out)
		}
	}
}

// TestForeignUnsupportedKeys: keys of Gemini CLI's and Claude Code's
// files that companion does not read are listed, not dropped silently.
func TestForeignUnsupportedKeys(t *testing.T) {
	t.Parallel()
	e := env(t)
	writeAt(t, homeOf(e), ".gemini/settings.json", `{"ui": {"theme": "GitHub"}, "general": {"vimMode": true, "defaultApprovalMode": "plan"},
		"tools": {"sandbox": "docker", "exclude": ["write_file"]}, "model": {"name": "gemini-2.5-flash"}}`)
	ws := workspace(t, map[string]string{".claude/settings.json": `{"permissions": {"deny": ["WebFetch"]}, "env": {"X": "1"}, "statusLine": {"type": "command", "command": "x"}}`})
	show := exec.Command(companionBin(t), "config", "show", "--dir", ws)
	show.Env = e
	data, err := show.CombinedOutput()
	if err != nil {
		t.Fatalf("config show: %v\n%s", err, data)
	}
	for _, want := range []string{"general.vimMode, tools.sandbox, ui", "env, statusLine", "approvalMode", "plan"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("config show lacks %q:\n%s", want, data)
		}
	}
	sc := script(t, `{"turns":[{"chunks":[{"text":"done"}]}]}`)
	o := runCompanion(t, runOpts{env: e, dir: ws, args: []string{"-p", "go", "--script", sc}})
	for _, want := range []string{"general.vimMode, tools.sandbox, ui", "env, statusLine"} {
		if strings.Count(o.Stderr, want) != 1 {
			t.Errorf("start-up notice %q not given once:\n%s", want, o)
		}
	}
}
