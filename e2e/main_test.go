package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"companion/internal/acptest"
)

// binary is the companion binary built for this test run.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "companion-e2e")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = os.Getenv("COMPANION_E2E_BIN") // a prebuilt binary, for debugging
	if binary == "" {
		binary = filepath.Join(dir, "companion")
		build := exec.Command("go", "build", "-race", "-o", binary, "companion/cmd/companion")
		build.Stdout, build.Stderr = os.Stderr, os.Stderr
		if err := build.Run(); err != nil {
			fmt.Fprintln(os.Stderr, "building companion:", err)
			os.Exit(1)
		}
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// env is a clean environment: no keys, settings in a temp home.
func env(t *testing.T, extra ...string) []string {
	home := t.TempDir()
	return append([]string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "XDG_CONFIG_HOME=" + filepath.Join(home, ".config")}, extra...)
}

// workspace makes a session root with the given files.
func workspace(t *testing.T, files map[string]string) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// script writes a scripted-model file and returns its path.
func script(t *testing.T, s string) string {
	t.Helper()
	var check any
	if err := json.Unmarshal([]byte(s), &check); err != nil {
		t.Fatalf("bad script in test: %v", err)
	}
	p := filepath.Join(t.TempDir(), "script.json")
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// startScripted starts companion on a script with the given editor handler.
func startScripted(t *testing.T, s string, h acptest.HandlerFunc) *acptest.Editor {
	return acptest.Start(t, binary, []string{"acp", "--script", script(t, s)}, env(t), h)
}

func kinds(us []acptest.Update) []string {
	var out []string
	for _, u := range us {
		out = append(out, u.Kind)
	}
	return out
}

// sessionID reads the id from a session/new answer.
func sessionID(m acptest.Msg) string {
	var r struct {
		SessionID string `json:"sessionId"`
	}
	json.Unmarshal(m.Result, &r)
	return r.SessionID
}
