package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTopLevel: companion with no subcommand. A prompt runs headless (no
// key: the json result reports the error and a sane duration); without a
// prompt or a terminal it prints the usage; help lists the flags with
// two dashes and the exit codes.
func TestTopLevel(t *testing.T) {
	t.Chdir(t.TempDir())
	tests := []struct {
		name     string
		args     []string
		code     int
		out, err string
	}{
		{"help", []string{"--help"}, 0, "-p, --prompt PROMPT", ""},
		{"help exit codes", []string{"-h"}, 0, "130  interrupted", ""},
		{"help after a flag", []string{"-m", "x", "--help"}, 0, "", "-y, --yolo"},
		{"no terminal, no prompt", nil, 2, "", "companion acp [flags]"},
		{"flags, no prompt, no terminal", []string{"-m", "x"}, 2, "", "Usage:"},
		{"unknown flag", []string{"--bogus"}, 2, "", "Run 'companion --help' for the flags."},
		{"prompt twice", []string{"-p", "hi", "extra"}, 2, "", `a prompt both with -p and as words ("extra")`},
		{"-v alone", []string{"-v"}, 0, "companion ", ""},
		{"--version after a flag", []string{"-m", "x", "--version"}, 0, "companion ", ""},
		{"-v after a flag", []string{"-y", "-v"}, 0, "companion ", ""},
		{"--acp with a prompt", []string{"--experimental-acp", "-p", "hi"}, 2, "", "--acp takes no prompt"},
		{"words as the prompt, no terminal", []string{"-o", "json", "fix", "the", "tests"}, 1, `"error":{"type":"ExecutionError"`, ""},
		{"subcommand still works", []string{"version"}, 0, "companion ", ""},
		{"prompt without a key", []string{"-p", "hi", "-o", "json"}, 1, `"error":{"type":"ExecutionError"`, ""},
		{"continue with nothing stored", []string{"-c", "-p", "hi"}, 1, "", "cannot continue: no stored session"},
		{"resume latest with nothing stored", []string{"--resume", "latest", "-p", "hi"}, 1, "", "cannot continue"},
		{"missing folder: Gemini CLI's input error", []string{"--include-directories", "nowhere", "-p", "hi"}, 42, "", "nowhere is not a folder"},
		{"bad approval mode: Gemini CLI's input error", []string{"--approval-mode", "wild", "-p", "hi"}, 42, "", "unknown permission mode"},
		{"bad approval mode in companion run: usage", []string{"run", "--approval-mode", "wild", "-p", "hi"}, 2, "", "companion run: bad usage"},
		{"stream-json input keeps the SDK's codes", []string{"--approval-mode", "wild", "--input-format", "stream-json", "-o", "stream-json"}, 2, "", "unknown permission mode"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := run(tt.args, nil, &out, &errb, homeEnv(t.TempDir()))
			if code != tt.code || !strings.Contains(out.String(), tt.out) || !strings.Contains(errb.String(), tt.err) {
				t.Errorf("companion %q = %d\nstdout %s\nstderr %s", tt.args, code, out.String(), errb.String())
			}
		})
	}
}

// TestTopLevelDuration: the json result of a run that could not start
// (no key) reports how long the run took, not the time since year 1.
func TestTopLevelDuration(t *testing.T) {
	t.Chdir(t.TempDir())
	var out, errb bytes.Buffer
	if code := run([]string{"run", "-p", "hi", "--output-format", "json"}, nil, &out, &errb, homeEnv(t.TempDir())); code != 1 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var res struct {
		DurationMS int64 `json:"duration_ms"`
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	if res.DurationMS < 0 || res.DurationMS > 3_600_000 {
		t.Errorf("duration_ms = %d", res.DurationMS)
	}
}

// TestContinue: -c and --resume latest continue the session of this
// folder that was used last (the demo model needs no key).
func TestContinue(t *testing.T) {
	t.Chdir(t.TempDir())
	getenv := homeEnv(t.TempDir())
	session := func(args ...string) string {
		t.Helper()
		var out, errb bytes.Buffer
		if code := run(append([]string{"--demo", "-o", "json"}, args...), nil, &out, &errb, getenv); code != 0 {
			t.Fatalf("companion %q = %d: %s", args, code, errb.String())
		}
		var res struct {
			SessionID string `json:"session_id"`
		}
		if err := json.Unmarshal(out.Bytes(), &res); err != nil || res.SessionID == "" {
			t.Fatalf("%v: %s", err, out.String())
		}
		return res.SessionID
	}
	first := session("-p", "one")
	second := session("-p", "two")
	if first == second {
		t.Fatal("two runs without -c shared a session")
	}
	if got := session("-c", "-p", "three"); got != second {
		t.Errorf("-c continued %s, want the last one %s", got, second)
	}
	if got := session("-p", "four", "--resume", "latest"); got != second {
		t.Errorf("--resume latest continued %s, want %s", got, second)
	}
	if got := session("-r", first, "-p", "five"); got != first {
		t.Errorf("-r ID continued %s, want %s", got, first)
	}
}

// TestChatFlags: flags that need a prompt are refused in a chat.
func TestChatFlags(t *testing.T) {
	bad := []runFlags{{outputFormat: "json"}, {outputFormat: "text", partial: true}, {outputFormat: "text", maxTurns: -1}}
	for _, f := range bad {
		if err := chatFlags(f); err == nil {
			t.Errorf("chatFlags(%+v) accepted", f)
		}
	}
	if err := chatFlags(runFlags{outputFormat: "text", maxTurns: 3}); err != nil {
		t.Errorf("chatFlags refused a good set: %v", err)
	}
}

// TestIncludeDirectories: folders are made absolute against the working
// folder and must exist.
func TestIncludeDirectories(t *testing.T) {
	cwd := t.TempDir()
	other := t.TempDir()
	if err := os.Mkdir(filepath.Join(cwd, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	f := runFlags{includeDirs: multiFlag{"sub, " + other, ""}}
	got, err := f.dirs(cwd)
	if err != nil || len(got) != 2 || got[0] != filepath.Join(cwd, "sub") || got[1] != other {
		t.Errorf("dirs = %q, %v", got, err)
	}
	f = runFlags{includeDirs: multiFlag{"missing"}}
	if _, err := f.dirs(cwd); err == nil {
		t.Error("a missing folder was accepted")
	}
}

// TestIsTerminal: a pipe is no terminal, nor is a reader that is no file.
func TestIsTerminal(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	if isTerminal(r) || isTerminal(strings.NewReader("")) || isTerminal(nil) {
		t.Error("a pipe or a plain reader counted as a terminal")
	}
}
