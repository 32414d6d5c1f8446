package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"companion/internal/testkit/acptest"
	"companion/mcpclient/oauth"
	"companion/mcpclient/oauth/oauthtest"
)

// oaBrowser writes a COMPANION_OAUTH_BROWSER script that records each URL
// it is asked to open in a file, and returns the script and the file.
func oaBrowser(t *testing.T) (script, urls string) {
	t.Helper()
	dir := t.TempDir()
	script, urls = filepath.Join(dir, "browser.sh"), filepath.Join(dir, "urls")
	body := fmt.Sprintf("#!/bin/sh\nprintf '%%s\\n' \"$1\" >> %q\n", urls)
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	return script, urls
}

// oaOpened waits for the browser script to have been asked to open a URL
// and returns the first.
func oaOpened(t *testing.T, urls string) string {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second) // a safety limit, not a timing assertion
	for time.Now().Before(deadline) {
		if data, err := os.ReadFile(urls); err == nil && strings.Contains(string(data), "\n") {
			return strings.SplitN(string(data), "\n", 2)[0]
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("the browser was never opened")
	return ""
}

// oaEnv is a clean environment with the browser hook and a user settings
// file naming the protected server as "remote".
func oaEnv(t *testing.T, srv *oauthtest.Server, browser string) []string {
	t.Helper()
	e := env(t, oauth.BrowserEnv+"="+browser)
	return withSettings(t, e, fmt.Sprintf(`{"mcpServers":{"remote":{"httpUrl":%q}}}`, srv.MCPURL()))
}

// oaHome is the home directory of e.
func oaHome(e []string) string { return strings.TrimPrefix(e[0], "HOME=") }

var oaURL = regexp.MustCompile(`<(https?://[^>]+/authorize\?[^>]+)>`)

// TestMCPOAuthOverACP: a remote server answers 401; companion discovers
// its authorization server, registers, sends the user the authorization
// link (a URL-mode elicitation when the client supports them, else a
// notice) and opens the browser; the session works meanwhile; once the
// test's browser has answered, the server's tool appears, the model calls
// it, and /mcp shows the server authorised.
func TestMCPOAuthOverACP(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"notice", "elicitation"} {
		t.Run(mode, func(t *testing.T) { oaOverACP(t, mode) })
	}
}

func oaOverACP(t *testing.T, mode string) {
	srv := oauthtest.Start(oauthtest.Options{})
	defer srv.Close()
	browser, urls := oaBrowser(t)
	e := oaEnv(t, srv, browser)
	ws := workspace(t, nil)
	fake := acptest.NewFake()
	asked := make(chan json.RawMessage, 4)
	fake.Elicit = func(p json.RawMessage) any {
		asked <- p
		return map[string]any{"action": "accept"}
	}
	ed := startAgent(t, agentOpts{binary: true, env: e, handler: fake.Handle, script: `{"turns":[
		{"match":"meanwhile","chunks":[{"text":"Still here."}]},
		{"match":"who am I","chunks":[{"functionCall":{"name":"mcp_remote_whoami","args":{}}}]},
		{"match":"you are authorised","chunks":[{"text":"The server knows you."}]}],"fallback":"error"}`})
	caps := map[string]any{}
	if mode == "elicitation" {
		caps["elicitation"] = map[string]any{"form": map[string]any{}, "url": map[string]any{}}
	}
	ed.Initialize(caps)
	m := ed.Call("session/new", map[string]any{"cwd": ws, "mcpServers": []any{}})
	if m.Error != nil {
		t.Fatalf("session/new: %v", m.Error)
	}
	id := sessionID(m)
	shown := oaShownLink(t, ed, asked, mode, id)
	opened := oaOpened(t, urls)
	if shown == "" || shown != opened {
		t.Fatalf("link shown %q, browser opened %q", shown, opened)
	}
	if got := ed.StopReason(ed.Wait(ed.Prompt(id, "meanwhile"))); got != "end_turn" {
		t.Fatalf("prompt while waiting for authorization: %q\n%s", got, ed.Stderr())
	}
	if report := oaCommand(ed, id, "/mcp auth remote"); !strings.Contains(report, opened) {
		t.Errorf("/mcp auth remote does not give the link:\n%s", report)
	}
	if report := oaCommand(ed, id, "/mcp"); !strings.Contains(report, "- Auth: needs auth (`/mcp auth remote`)") {
		t.Errorf("/mcp before authorization:\n%s", report)
	}
	if st, err := oauthtest.Browser(context.Background(), opened); err != nil || st != 200 {
		t.Fatalf("browser: %d %v", st, err)
	}
	oaWaitMCP(t, ed, id, "- Auth: authorised")
	oaWaitMCP(t, ed, id, "`whoami`") // the tool is listed once the server is ready again
	if got := ed.StopReason(ed.Wait(ed.Prompt(id, "who am I"))); got != "end_turn" {
		t.Fatalf("stopReason = %q\n%s", got, ed.Stderr())
	}
	if c := srv.Counts(); c.ToolCalls != 1 || c.Registrations != 1 {
		t.Errorf("server counts = %+v", c)
	}
	fi, err := os.Stat(filepath.Join(oaHome(e), ".local", "state", "companion", oauth.StoreFile))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("grants file: %v %v", fi, err)
	}
	ed.Close()
}

// oaShownLink is the authorization link sent to the user: in a URL-mode
// elicitation, or in a notice.
func oaShownLink(t *testing.T, ed *acptest.Editor, asked <-chan json.RawMessage, mode, id string) string {
	t.Helper()
	if mode == "elicitation" {
		var p json.RawMessage
		select {
		case p = <-asked:
		case <-time.After(30 * time.Second): // a safety limit
			t.Fatalf("no elicitation; agent stderr:\n%s", ed.Stderr())
		}
		var req struct{ Mode, URL, SessionID string }
		_ = json.Unmarshal(p, &req)
		if req.Mode != "url" || req.SessionID != id {
			t.Errorf("elicitation = %s", p)
		}
		return req.URL
	}
	notice := ed.WaitFor(func(msg acptest.Msg) bool {
		return msg.Method == "session/update" && strings.Contains(oaText(msg.Params), "/authorize?")
	})
	if m := oaURL.FindStringSubmatch(oaText(notice.Params)); m != nil {
		return m[1]
	}
	return ""
}

// oaCommand runs a slash command and returns its answer's text.
func oaCommand(ed *acptest.Editor, id, cmd string) string {
	before := len(ed.Updates(id))
	ed.StopReason(ed.Wait(ed.Prompt(id, cmd)))
	var report string
	for _, u := range ed.Updates(id)[before:] {
		report += u.Text()
	}
	return report
}

// oaWaitMCP runs /mcp until its report contains want.
func oaWaitMCP(t *testing.T, ed *acptest.Editor, id, want string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second) // a safety limit
	var report string
	for time.Now().Before(deadline) {
		report = oaCommand(ed, id, "/mcp")
		if strings.Contains(report, want) {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("/mcp never showed %q:\n%s", want, report)
}

// oaText is every string in a message's params, joined.
func oaText(raw json.RawMessage) string {
	var v any
	_ = json.Unmarshal(raw, &v)
	var b strings.Builder
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			b.WriteString(x + "\n")
		case map[string]any:
			for _, y := range x {
				walk(y)
			}
		case []any:
			for _, y := range x {
				walk(y)
			}
		}
	}
	walk(v)
	return b.String()
}

// TestMCPOAuthCommand: `companion mcp auth NAME` runs the flow in the
// terminal (the URL on stderr, the browser hook opened), stores the grant
// in a 0600 file, `companion mcp list` shows the server authorised, and
// `companion mcp logout NAME` forgets it.
func TestMCPOAuthCommand(t *testing.T) {
	t.Parallel()
	srv := oauthtest.Start(oauthtest.Options{})
	defer srv.Close()
	browser, urls := oaBrowser(t)
	e := oaEnv(t, srv, browser)
	run := func(args ...string) (string, error) {
		cmd := exec.Command(companionBin(t), args...)
		cmd.Env, cmd.Dir = e, t.TempDir()
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	type result struct {
		out string
		err error
	}
	done := make(chan result, 1)
	go func() {
		out, err := run("mcp", "auth", "remote")
		done <- result{out, err}
	}()
	opened := oaOpened(t, urls)
	if st, err := oauthtest.Browser(context.Background(), opened); err != nil || st != 200 {
		t.Fatalf("browser: %d %v", st, err)
	}
	r := <-done
	if r.err != nil || !strings.Contains(r.out, opened) || !strings.Contains(r.out, "authorised remote") {
		t.Fatalf("companion mcp auth: %v\n%s", r.err, r.out)
	}
	fi, err := os.Stat(filepath.Join(oaHome(e), ".local", "state", "companion", oauth.StoreFile))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("grants file: %v %v", fi, err)
	}
	if out, _ := run("mcp", "list", "--user"); !strings.Contains(out, "\tauth: authorised") {
		t.Errorf("list after auth:\n%s", out)
	}
	// A headless run uses the stored grant: no browser, the tool answers.
	script := filepath.Join(t.TempDir(), "script.json")
	if err := os.WriteFile(script, []byte(`{"turns":[
		{"match":"who am I","chunks":[{"functionCall":{"name":"mcp_remote_whoami","args":{}}}]},
		{"match":"functionResponse","chunks":[{"text":"The server knows you."}]}],"fallback":"error"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := run("run", "--script", script, "--approval-mode", "yolo", "-p", "who am I"); err != nil ||
		!strings.Contains(out, "The server knows you.") || srv.Counts().ToolCalls != 1 {
		t.Errorf("companion run with the stored grant: %v, %d tool calls\n%s", err, srv.Counts().ToolCalls, out)
	}
	if data, _ := os.ReadFile(urls); strings.Count(string(data), "\n") != 1 {
		t.Errorf("the browser was opened again for the run:\n%s", data)
	}
	if out, err := run("mcp", "logout", "remote"); err != nil || !strings.Contains(out, "logged out of remote") {
		t.Errorf("logout: %v %s", err, out)
	}
	if out, _ := run("mcp", "list", "--user"); !strings.Contains(out, "\tauth: none") {
		t.Errorf("list after logout:\n%s", out)
	}
}
