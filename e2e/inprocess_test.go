package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"companion/internal/acptest"
	"companion/internal/cli"
)

// starter starts an agent on a scripted model with an editor handler:
// the real binary (startScripted) or the same wiring in process
// (startInProcess).
type starter func(t *testing.T, script string, h acptest.HandlerFunc) *acptest.Editor

// inProcessEnv is the environment an in-process agent sees: a temp home,
// as env gives the binary.
func inProcessEnv(t *testing.T) map[string]string {
	home := t.TempDir()
	return map[string]string{"HOME": home, "PATH": os.Getenv("PATH"), "XDG_CONFIG_HOME": filepath.Join(home, ".config")}
}

// serveEnv is the real `companion acp` wiring with settings read from env
// and flags f, run in the test's process.
func serveEnv(env map[string]string, f cli.Flags) acptest.ServeFunc {
	return acptest.ServeFunc(cli.Serve(func(k string) string { return env[k] }, f, "test"))
}

// startInProcess is startScripted without a child process.
func startInProcess(t *testing.T, s string, h acptest.HandlerFunc) *acptest.Editor {
	return acptest.StartServe(t, serveEnv(inProcessEnv(t), cli.Flags{Script: script(t, s)}), h)
}

// The scenarios of acp_test.go, in process.

func TestInProcessPromptStreamsToEndTurn(t *testing.T) {
	testPromptStreamsToEndTurn(t, startInProcess)
}
func TestInProcessReadFileThroughClient(t *testing.T) { testReadFileThroughClient(t, startInProcess) }
func TestInProcessCancelDuringStreaming(t *testing.T) { testCancelDuringStreaming(t, startInProcess) }
func TestInProcessCancelDuringTool(t *testing.T)      { testCancelDuringTool(t, startInProcess) }
func TestInProcessTwoSessionsAtOnce(t *testing.T)     { testTwoSessionsAtOnce(t, startInProcess) }
func TestInProcessBusySessionRefusesSecondPrompt(t *testing.T) {
	testBusySessionRefusesSecondPrompt(t, startInProcess)
}
func TestInProcessModesAndConfigOptions(t *testing.T) { testModesAndConfigOptions(t, startInProcess) }
func TestInProcessLogout(t *testing.T)                { testLogout(t, startInProcess) }
func TestInProcessMalformedInput(t *testing.T)        { testMalformedInput(t, startInProcess) }
func TestInProcessVersionNegotiation(t *testing.T)    { testVersionNegotiation(t, startInProcess) }
func TestInProcessSlashCommandAndTitle(t *testing.T)  { testSlashCommandAndTitle(t, startInProcess) }

// TestAuthenticateRebuildsModel: authenticate re-reads the settings, and a
// session opened after it uses the provider the new settings name, not
// the one built for the first session.
func TestAuthenticateRebuildsModel(t *testing.T) {
	env := inProcessEnv(t)
	settings := filepath.Join(env["XDG_CONFIG_HOME"], "companion", "settings.json")
	useScript := func(answer string) {
		t.Helper()
		p := script(t, `{"turns":[{"chunks":[{"text":"`+answer+`"}],"times":100}]}`)
		if err := os.MkdirAll(filepath.Dir(settings), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(settings, []byte(`{"script":`+quote(p)+`}`), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	useScript("first provider")
	ed := acptest.StartServe(t, serveEnv(env, cli.Flags{}), nil)
	ed.Initialize(map[string]any{})
	ws := workspace(t, nil)
	answer := func() string {
		t.Helper()
		id := ed.NewSession(ws)
		if got := ed.StopReason(ed.Wait(ed.Prompt(id, "who answers?"))); got != "end_turn" {
			t.Fatalf("stopReason = %q\n%s", got, ed.Stderr())
		}
		var text strings.Builder
		for _, u := range ed.Updates(id) {
			if u.Kind == "agent_message_chunk" {
				text.WriteString(u.Text())
			}
		}
		return text.String()
	}
	if got := answer(); got != "first provider" {
		t.Fatalf("first session answered %q", got)
	}
	useScript("second provider")
	if m := ed.Call("authenticate", map[string]any{"methodId": "gemini-api-key"}); m.Error != nil {
		t.Fatalf("authenticate: %+v", m.Error)
	}
	if got := answer(); got != "second provider" {
		t.Errorf("after authenticate a new session answered %q, want the new settings' model", got)
	}
	ed.Close()
}

// quote is s as a JSON string.
func quote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}
