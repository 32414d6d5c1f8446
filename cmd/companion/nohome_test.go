package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/user"
	"path/filepath"
	"strings"
	"testing"

	"companion/config"
)

// TestRunWithoutHome: with HOME unset, `companion run` stores its session
// under the account's home (through config.UserEnv, as main wires it) and
// `companion run --resume latest` finds it there.
func TestRunWithoutHome(t *testing.T) {
	t.Chdir(t.TempDir())
	account := t.TempDir()
	getenv := config.UserEnv(func(string) string { return "" }, func() (string, error) { return account, nil })
	session := func(args ...string) string {
		t.Helper()
		var out, errb bytes.Buffer
		if code := run(append([]string{"run", "--demo", "-o", "json"}, args...), nil, &out, &errb, getenv); code != 0 {
			t.Fatalf("companion run %q = %d: %s", args, code, errb.String())
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
	sessions := filepath.Join(account, ".local", "state", "companion", "sessions")
	if !holdsFileNamed(t, sessions, first) {
		t.Fatalf("session %s not stored under %s", first, sessions)
	}
	if got := session("--resume", "latest", "-p", "two"); got != first {
		t.Errorf("--resume latest continued %s, want %s", got, first)
	}
	if _, err := os.Stat(filepath.Join(os.TempDir(), "companion-state", "sessions", first+".jsonl")); err == nil {
		t.Errorf("session %s went to the temp folder", first)
	}
}

// TestMainEnvFillsHome: the environment main passes on answers HOME from
// the account database when HOME is unset.
func TestMainEnvFillsHome(t *testing.T) {
	u, err := user.Current()
	if err != nil || u.HomeDir == "" || !filepath.IsAbs(u.HomeDir) {
		t.Skipf("no account home here: %v", err)
	}
	getenv := config.UserEnv(func(string) string { return "" }, config.AccountHome)
	if got := getenv("HOME"); got != u.HomeDir {
		t.Errorf("HOME = %q, want the account's %q", got, u.HomeDir)
	}
}

// holdsFileNamed reports whether a file under dir has name in its name.
func holdsFileNamed(t *testing.T, dir, name string) bool {
	t.Helper()
	found := false
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.Contains(d.Name(), name) {
			found = true
		}
		return err
	})
	if err != nil {
		t.Logf("walking %s: %v", dir, err)
	}
	return found
}
