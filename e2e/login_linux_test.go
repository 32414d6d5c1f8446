package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"

	"companion/internal/testkit/acptest"
)

// TestLoginForEditors: a client that runs agents in a terminal is offered
// `companion login`; signing in there (the key typed, not echoed) keeps the
// key in a file only the user can read, after which authenticate succeeds
// without any key in the environment; logout forgets it.
func TestLoginForEditors(t *testing.T) {
	t.Parallel()
	e := env(t, "COMPANION_KEYCHAIN=off")
	home := strings.TrimPrefix(e[0], "HOME=")

	ed := acptest.Start(t, companionBin(t), []string{"acp"}, e, nil)
	init := ed.Initialize(map[string]any{"auth": map[string]any{"terminal": true}})
	var r struct {
		AuthMethods []struct {
			Type string   `json:"type"`
			ID   string   `json:"id"`
			Args []string `json:"args"`
		} `json:"authMethods"`
	}
	if err := json.Unmarshal(init.Result, &r); err != nil {
		t.Fatal(err)
	}
	if n := len(r.AuthMethods); n != 2 || r.AuthMethods[1].Type != "terminal" || strings.Join(r.AuthMethods[1].Args, " ") != "login" {
		t.Fatalf("authMethods = %+v, want the key method and a terminal one running `companion login`", r.AuthMethods)
	}
	if m := ed.Call("authenticate", map[string]any{"methodId": "gemini-api-key"}); m.Error == nil {
		t.Fatal("authenticate succeeded before any key was given")
	}

	screen := runLogin(t, e, "1\n", "AIza-test-key-123\n")
	if strings.Contains(screen, "AIza-test-key-123") {
		t.Errorf("the key was echoed:\n%s", screen)
	}
	file := filepath.Join(home, ".config", "companion", "credentials.json")
	if fi, err := os.Stat(file); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("credentials file: %v, mode %v; want 0600", err, fi)
	}
	if m := ed.Call("authenticate", map[string]any{"methodId": "gemini-api-key"}); m.Error != nil {
		t.Errorf("authenticate after login: %v", m.Error)
	}

	logout := exec.Command(companionBin(t), "logout")
	logout.Env = e
	if out, err := logout.CombinedOutput(); err != nil {
		t.Fatalf("logout: %v\n%s", err, out)
	}
	ed2 := acptest.Start(t, companionBin(t), []string{"acp"}, e, nil)
	ed2.Initialize(map[string]any{})
	if m := ed2.Call("authenticate", map[string]any{"methodId": "gemini-api-key"}); m.Error == nil {
		t.Error("authenticate succeeded after logout")
	}
}

// runLogin runs `companion login` on a terminal, typing each answer once
// its prompt shows, and returns what the terminal showed.
func runLogin(t *testing.T, e []string, answers ...string) string {
	t.Helper()
	cmd := exec.Command(companionBin(t), "login")
	cmd.Env = e
	tty, err := pty.Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	defer tty.Close()
	var screen strings.Builder
	buf := make([]byte, 4096)
	prompts := []string{"Choice [1]: ", "Gemini API key: "}
	for i, a := range answers {
		deadline := time.Now().Add(30 * time.Second)
		for !strings.Contains(screen.String(), prompts[i]) && time.Now().Before(deadline) {
			n, err := tty.Read(buf)
			screen.Write(buf[:n])
			if err != nil {
				t.Fatalf("login ended early: %v\n%s", err, screen.String())
			}
		}
		if i == 1 { // the key: type it once the terminal no longer echoes
			waitNoEcho(t, tty)
		}
		tty.WriteString(a)
	}
	for {
		n, err := tty.Read(buf)
		screen.Write(buf[:n])
		if err != nil {
			break
		}
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("login: %v\n%s", err, screen.String())
	}
	if !strings.Contains(screen.String(), "Signed in") {
		t.Errorf("login did not say it signed in:\n%s", screen.String())
	}
	return screen.String()
}

// waitNoEcho waits until the terminal's echo is off: what is typed from
// then on is not shown.
func waitNoEcho(t *testing.T, tty *os.File) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		st, err := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS)
		if err != nil {
			t.Fatal(err)
		}
		if st.Lflag&unix.ECHO == 0 {
			return
		}
	}
	t.Fatal("the terminal still echoes at the key prompt")
}
