package e2e

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"companion/internal/cli"
	"companion/internal/testkit/acptest"
)

// TestSecretsStayOut is issue 16's "secrets stay out of commands and
// logs": with a marked GEMINI_API_KEY in companion's environment (it is
// the configured key even though --script talks to the scripted server), a
// model-run `env` does not see it, and after a file holding the key was
// read, no session file, log line or message the editor received holds it.
func TestSecretsStayOut(t *testing.T) {
	t.Parallel()
	const marker = "MARKED-KEY-1234"
	ws := workspace(t, map[string]string{"notes.txt": "the key is " + marker + "\n"})
	// The command names only a prefix of the marker, so the command line
	// itself (in the permission card) carries no secret.
	shellCall := modelCall("run_shell_command", map[string]any{
		"command": `env | grep -c MARKED-KEY; echo "GEMINI=${GEMINI_API_KEY:-unset}"`})
	readCall := modelCall("read_file", map[string]any{"file_path": "notes.txt"})
	e := env(t, "GEMINI_API_KEY="+marker)
	home := strings.TrimPrefix(e[0], "HOME=")
	logFile := filepath.Join(t.TempDir(), "companion.log")
	fake := acptest.NewFake()
	// The second prompt meets a provider error that echoes the key, as
	// an endpoint complaining about a URL with key= would.
	s := `{"turns":[{"chunks":[` + shellCall + `,` + readCall + `]},
		{"match":"functionResponse","chunks":[{"text":"done"}]},
		{"match":"provoke","status":400,"message":"invalid argument in https://endpoint.example/v1beta/models/m?key=` + marker + `"}],"fallback":"error"}`
	// The real binary on purpose: the command must run in companion's own environment, and --log-file.
	ed := startAgent(t, agentOpts{binary: true, script: s, env: e, handler: fake.Handle,
		flags: cli.Flags{LogFile: logFile, LogLevel: "debug"}})
	ed.Initialize(map[string]any{}) // no terminal: the command runs in companion's own environment
	id := ed.NewSession(ws)
	if got := ed.StopReason(ed.Wait(ed.Prompt(id, "check the environment"))); got != "end_turn" {
		t.Fatalf("stopReason = %q", got)
	}
	if len(fake.Permissions) == 0 {
		t.Error("the command ran without the editor being asked")
	}
	ups := toolUpdates(ed, id)
	if !strings.Contains(ups, `0\nGEMINI=unset`) {
		t.Errorf("the command saw the key (want grep count 0 and GEMINI=unset):\n%s", ups)
	}
	answer := ed.Wait(ed.Prompt(id, "provoke an error"))
	if b, _ := json.Marshal(answer); !strings.Contains(string(b)+secretsTexts(ed, id), "key=[redacted]") {
		t.Errorf("the provider's error did not reach the editor redacted: %s", b)
	}
	ed.Close()

	for _, m := range ed.Received() {
		if b, _ := json.Marshal(m); strings.Contains(string(b), marker) {
			t.Errorf("a message to the editor holds the key: %s", b)
		}
	}
	if data, err := os.ReadFile(logFile); err != nil || len(data) == 0 {
		t.Errorf("no log written (%v)", err)
	} else if strings.Contains(string(data), marker) {
		t.Errorf("the log holds the key:\n%s", data)
	}
	journals := secretsGrep(t, home, marker)
	if journals == 0 {
		t.Error("no session file found under the state directory")
	}
}

// secretsTexts joins the texts of session id's updates.
func secretsTexts(ed *acptest.Editor, id string) string {
	var b strings.Builder
	for _, u := range ed.Updates(id) {
		b.WriteString(u.Text())
	}
	return b.String()
}

// secretsGrep fails the test for every file under dir holding marker, and
// returns how many session files (*.jsonl) it found, checking that one
// records the redacted read.
func secretsGrep(t *testing.T, dir, marker string) int {
	t.Helper()
	sessions, redacted := 0, false
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if strings.Contains(string(data), marker) {
			t.Errorf("%s holds the key", p)
		}
		if strings.HasSuffix(p, ".jsonl") {
			sessions++
			redacted = redacted || strings.Contains(string(data), "the key is [redacted]")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if sessions > 0 && !redacted {
		t.Error("no session file records the file's text with the key redacted")
	}
	return sessions
}
