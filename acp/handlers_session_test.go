package acp_test

import (
	"strings"
	"testing"

	"companion/internal/testkit/acptest"
)

// stored starts an agent, opens a session, has it answer one prompt and
// closes it, so the session exists only in the store; it returns the
// editor, the session id and its root.
func stored(t *testing.T) (*acptest.Editor, string, string) {
	t.Helper()
	ed, cwd := agent(t, reply)
	ed.Initialize(map[string]any{})
	sid := ed.NewSession(cwd)
	if m := ed.Call("session/prompt", prompt(sid, "remember me")); m.Error != nil {
		t.Fatalf("prompt: %v", m.Error)
	}
	if m := ed.Call("session/close", map[string]any{"sessionId": sid}); m.Error != nil {
		t.Fatalf("close: %v", m.Error)
	}
	return ed, sid, cwd
}

// restoreCase is one session/load or session/resume request against a
// stored session.
type restoreCase struct {
	name   string
	id     func(sid string) string
	code   int64
	replay bool // the stored prompt comes back as updates
}

func restoreCases(replay bool) []restoreCase {
	return []restoreCase{
		{name: "stored session", id: func(sid string) string { return sid }, replay: replay},
		{name: "unknown session", id: func(string) string { return "0123456789abcdef" }, code: -32002},
		{name: "malformed id", id: func(string) string { return "../escape" }, code: -32602},
	}
}

// runRestore sends method for each case and checks the answer and whether
// the conversation was replayed.
func runRestore(t *testing.T, method string, cases []restoreCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			ed, sid, cwd := stored(t)
			before := len(ed.Updates(sid))
			id := c.id(sid)
			m := ed.Call(method, map[string]any{"sessionId": id, "cwd": cwd, "mcpServers": []any{}})
			check(t, m, c.code, []string{`"modes"`, `"configOptions"`})
			if c.code != 0 {
				return
			}
			var replayed strings.Builder
			for _, u := range ed.Updates(sid)[before:] {
				replayed.Write(u.Raw)
			}
			if got := strings.Contains(replayed.String(), "remember me"); got != c.replay {
				t.Errorf("prompt replayed = %v, want %v: %s", got, c.replay, replayed.String())
			}
			if m := ed.Call("session/prompt", prompt(id, "again")); m.Error != nil {
				t.Errorf("the restored session does not take a prompt: %v", m.Error)
			}
		})
	}
}

func TestSessionLoadHandler(t *testing.T) {
	t.Parallel()
	runRestore(t, "session/load", restoreCases(true))
}

func TestSessionResumeHandler(t *testing.T) {
	t.Parallel()
	runRestore(t, "session/resume", restoreCases(false))
}

func TestSessionDeleteHandler(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		id   func(sid string) string
		code int64
	}{
		{"stored session", func(sid string) string { return sid }, 0},
		{"unknown session succeeds", func(string) string { return "0123456789abcdef" }, 0},
		{"malformed id", func(string) string { return "../escape" }, -32602},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			ed, sid, cwd := stored(t)
			check(t, ed.Call("session/delete", map[string]any{"sessionId": c.id(sid)}), c.code, nil)
			list := ed.Call("session/list", map[string]any{"cwd": cwd})
			listed := strings.Contains(string(list.Result), sid)
			if deleted := c.code == 0 && c.id(sid) == sid; listed == deleted {
				t.Errorf("session listed = %v after deleting %q: %s", listed, c.id(sid), list.Result)
			}
		})
	}
}

func TestSessionSetConfigOptionHandler(t *testing.T) {
	t.Parallel()
	option := func(id string, value any) func(sid, _ string) any {
		return func(sid, _ string) any { return map[string]any{"sessionId": sid, "configId": id, "value": value} }
	}
	run(t, "session/set_config_option", []call{
		{name: "mode", params: option("mode", "plan"), want: []string{`"configOptions"`, `"currentValue":"plan"`},
			update: `"currentModeId":"plan"`},
		{name: "unknown mode", params: option("mode", "no-such-mode"), code: -32602},
		{name: "unknown option", params: option("colour", "red"), code: -32602},
		{name: "not a string", params: option("mode", true), code: -32602},
		{name: "unknown session", params: func(string, string) any {
			return map[string]any{"sessionId": "nope", "configId": "mode", "value": "plan"}
		}, code: -32002},
	})
}

func TestAuthenticateHandler(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		method string
		code   int64
	}{
		{"API key", "gemini-api-key", 0},
		{"unknown method", "carrier-pigeon", -32602},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			ed, cwd := agent(t, reply)
			ed.Initialize(map[string]any{})
			check(t, ed.Call("logout", map[string]any{}), 0, nil)
			check(t, ed.Call("session/new", map[string]any{"cwd": cwd, "mcpServers": []any{}}), -32000, nil)
			check(t, ed.Call("authenticate", map[string]any{"methodId": c.method}), c.code, nil)
			wantNew := int64(0)
			if c.code != 0 {
				wantNew = -32000 // still logged out
			}
			check(t, ed.Call("session/new", map[string]any{"cwd": cwd, "mcpServers": []any{}}), wantNew, nil)
		})
	}
}

// hanging answers a first prompt with a stream that never finishes.
const hanging = `{"turns":[{"chunks":[{"text":"thinking it over"}],"hang":true}]}`

func TestSessionCancelHandler(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		cancel func(sid string) string
		want   string // the running prompt's stop reason
	}{
		{"the running session", func(sid string) string { return sid }, "cancelled"},
		{"another session is ignored", func(string) string { return "0123456789abcdef" }, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			ed, cwd := agent(t, hanging)
			ed.Initialize(map[string]any{})
			sid := ed.NewSession(cwd)
			running := ed.Prompt(sid, "take your time")
			ed.WaitUpdate(sid, "agent_message_chunk")
			ed.Notify("session/cancel", map[string]any{"sessionId": c.cancel(sid)})
			if c.want == "" {
				// A cancel for another session leaves this turn running
				// (a request answered after it shows it was handled); a
				// real one must still stop it.
				check(t, ed.Call("session/list", map[string]any{}), 0, nil)
				select {
				case m := <-running:
					t.Fatalf("the turn ended on another session's cancel: %s", m.Result)
				default:
				}
				ed.Notify("session/cancel", map[string]any{"sessionId": sid})
				c.want = "cancelled"
			}
			if got := ed.StopReason(ed.Wait(running)); got != c.want {
				t.Errorf("stop reason %q, want %q", got, c.want)
			}
		})
	}
}
