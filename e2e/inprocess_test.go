package e2e

import (
	"flag"
	"strings"
	"testing"

	"companion/internal/cli"
	"companion/internal/testkit/acptest"
)

// starter starts an agent on a scripted model with an editor handler:
// the real binary (onBinary) or the same wiring in process (inProcess).
type starter func(t *testing.T, script string, h acptest.HandlerFunc) *acptest.Editor

// The scenarios of acp_test.go, in process.

func TestInProcessPromptStreamsToEndTurn(t *testing.T) {
	testPromptStreamsToEndTurn(t, inProcess)
}
func TestInProcessReadFileThroughClient(t *testing.T) { testReadFileThroughClient(t, inProcess) }
func TestInProcessCancelDuringStreaming(t *testing.T) { testCancelDuringStreaming(t, inProcess) }
func TestInProcessCancelDuringTool(t *testing.T)      { testCancelDuringTool(t, inProcess) }
func TestInProcessTwoSessionsAtOnce(t *testing.T)     { testTwoSessionsAtOnce(t, inProcess) }
func TestInProcessBusySessionRefusesSecondPrompt(t *testing.T) {
	testBusySessionRefusesSecondPrompt(t, inProcess)
}
func TestInProcessModesAndConfigOptions(t *testing.T) { testModesAndConfigOptions(t, inProcess) }
func TestInProcessLogout(t *testing.T)                { testLogout(t, inProcess) }
func TestInProcessMalformedInput(t *testing.T)        { testMalformedInput(t, inProcess) }
func TestInProcessVersionNegotiation(t *testing.T)    { testVersionNegotiation(t, inProcess) }
func TestInProcessSlashCommandAndTitle(t *testing.T)  { testSlashCommandAndTitle(t, inProcess) }

// TestAuthenticateRebuildsModel: authenticate re-reads the settings, and a
// session opened after it uses the provider the new settings name, not
// the one built for the first session.
func TestAuthenticateRebuildsModel(t *testing.T) {
	e := env(t)
	useScript := func(answer string) {
		t.Helper()
		p := script(t, `{"turns":[{"chunks":[{"text":"`+answer+`"}],"times":100}]}`)
		withSettings(t, e, `{"script":`+quote(p)+`}`)
	}
	useScript("first provider")
	ed := startAgent(t, agentOpts{env: e})
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

// TestFlagArgs: flagArgs gives the binary the flags the in-process wiring
// gets, so one agentOpts starts both alike.
func TestFlagArgs(t *testing.T) {
	want := cli.Flags{Script: "s.json", Model: "m", LogFile: "a b.log", LogLevel: "debug", Provider: "openai",
		Sandbox: "read-only", Demo: true, MaxTurnRequests: 3}
	fs := flag.NewFlagSet("acp", flag.ContinueOnError)
	var got cli.Flags
	got.Register(fs)
	if err := fs.Parse(flagArgs(want)); err != nil || got != want || fs.NArg() != 0 {
		t.Errorf("flagArgs(%+v) = %q, parsed back as %+v (%v)", want, flagArgs(want), got, err)
	}
	if args := flagArgs(cli.Flags{}); len(args) != 0 {
		t.Errorf("flagArgs of no flags = %q", args)
	}
}
