package acp_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"companion/internal/cli"
	"companion/internal/testkit/acptest"
)

// reply is the scripted model's one answer in these tests.
const reply = `{"turns":[{"chunks":[{"text":"hello from the model"}]}]}`

// agent starts the wired ACP server in the test's process over pipes, on
// a scripted model answering per script, with a clean home; it returns
// the initialized editor and a session root.
func agent(t *testing.T, script string) (*acptest.Editor, string) {
	t.Helper()
	home := t.TempDir()
	path := filepath.Join(t.TempDir(), "script.json")
	if err := os.WriteFile(path, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"HOME": home, "PATH": os.Getenv("PATH"), "XDG_CONFIG_HOME": filepath.Join(home, ".config")}
	getenv := func(k string) string { return env[k] }
	ed := acptest.StartServe(t, acptest.ServeFunc(cli.Serve(getenv, cli.Flags{Script: path}, "test")), acptest.NewFake().Handle)
	cwd, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return ed, cwd
}

// call is one request of a handler table: params built from the session
// id and root, and either the error code wanted or text the result must
// hold.
type call struct {
	name   string
	params func(sid, cwd string) any
	code   int64
	want   []string
	// update, when set, is text one of the session's updates must hold.
	update string
}

// updateText is every session/update of session sid, joined.
func updateText(ed *acptest.Editor, sid string) string {
	var b strings.Builder
	for _, u := range ed.Updates(sid) {
		b.Write(u.Raw)
	}
	return b.String()
}

// run sends each case to method on a fresh agent with one open session
// and checks the answer.
func run(t *testing.T, method string, cases []call) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			ed, cwd := agent(t, reply)
			ed.Initialize(map[string]any{})
			sid := ed.NewSession(cwd)
			m := ed.Call(method, c.params(sid, cwd))
			check(t, m, c.code, c.want)
			if c.update != "" && !strings.Contains(updateText(ed, sid), c.update) {
				t.Errorf("no session/update holds %q: %s", c.update, updateText(ed, sid))
			}
		})
	}
}

// check fails t unless m is the error with code, or (code 0) a result
// holding every string of want.
func check(t *testing.T, m acptest.Msg, code int64, want []string) {
	t.Helper()
	if code != 0 {
		if m.Error == nil || m.Error.Code != code {
			t.Fatalf("answer %s, error %v; want error code %d", m.Result, m.Error, code)
		}
		return
	}
	if m.Error != nil {
		t.Fatalf("error %v, want a result", m.Error)
	}
	for _, w := range want {
		if !strings.Contains(string(m.Result), w) {
			t.Errorf("result %s does not hold %s", m.Result, w)
		}
	}
}

// prompt is session/prompt params with one text block.
func prompt(sid, text string) map[string]any {
	return map[string]any{"sessionId": sid, "prompt": []any{map[string]any{"type": "text", "text": text}}}
}

func TestInitializeHandler(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		params map[string]any
		want   []string
	}{
		{"version 1", map[string]any{"protocolVersion": 1}, []string{`"protocolVersion":1`, `"agentCapabilities"`, `"loadSession":true`}},
		{"newer version answered with ours", map[string]any{"protocolVersion": 99}, []string{`"protocolVersion":1`}},
		{"file system capabilities", map[string]any{"protocolVersion": 1,
			"clientCapabilities": map[string]any{"fs": map[string]any{"readTextFile": true, "writeTextFile": true}, "terminal": true}},
			[]string{`"agentInfo"`, `"authMethods"`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			ed, _ := agent(t, reply)
			m := ed.Call("initialize", c.params)
			check(t, m, 0, c.want)
		})
	}
}

func TestSessionNewHandler(t *testing.T) {
	t.Parallel()
	run(t, "session/new", []call{
		{name: "a second session", params: func(_, cwd string) any {
			return map[string]any{"cwd": cwd, "mcpServers": []any{}}
		}, want: []string{`"sessionId"`, `"modes"`}},
		{name: "relative cwd", params: func(string, string) any {
			return map[string]any{"cwd": "relative/dir", "mcpServers": []any{}}
		}, code: -32602},
		{name: "missing cwd", params: func(string, string) any {
			return map[string]any{"mcpServers": []any{}}
		}, code: -32602},
	})
}

func TestSessionPromptHandler(t *testing.T) {
	t.Parallel()
	run(t, "session/prompt", []call{
		{name: "text", params: func(sid, _ string) any { return prompt(sid, "hi") },
			want: []string{`"stopReason":"end_turn"`}, update: "hello from the model"},
		{name: "unknown session", params: func(string, string) any { return prompt("no-such-session", "hi") }, code: -32002},
		{name: "slash command", params: func(sid, _ string) any { return prompt(sid, "/about") },
			want: []string{`"stopReason":"end_turn"`}, update: "companion"},
	})
}

func TestSessionSetModeHandler(t *testing.T) {
	t.Parallel()
	run(t, "session/set_mode", []call{
		{name: "plan", params: func(sid, _ string) any { return map[string]any{"sessionId": sid, "modeId": "plan"} },
			update: `"currentValue":"plan"`},
		{name: "unknown mode", params: func(sid, _ string) any { return map[string]any{"sessionId": sid, "modeId": "no-such-mode"} }, code: -32602},
		{name: "unknown session", params: func(string, string) any { return map[string]any{"sessionId": "nope", "modeId": "plan"} }, code: -32002},
	})
}

func TestSessionListHandler(t *testing.T) {
	t.Parallel()
	run(t, "session/list", []call{
		{name: "all", params: func(string, string) any { return map[string]any{} }, want: []string{`"sessions"`}},
		{name: "by cwd", params: func(_, cwd string) any { return map[string]any{"cwd": cwd} }, want: []string{`"sessions"`}},
	})
}

func TestSessionCloseHandler(t *testing.T) {
	t.Parallel()
	run(t, "session/close", []call{
		{name: "open session", params: func(sid, _ string) any { return map[string]any{"sessionId": sid} }},
		{name: "unknown session", params: func(string, string) any { return map[string]any{"sessionId": "nope"} }, code: -32002},
	})
}
