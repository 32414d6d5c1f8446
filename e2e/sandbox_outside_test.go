package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"companion/internal/testkit/acptest"
)

// sbxBase is a fresh directory outside /tmp (a sandboxed command sees /tmp
// as a private tmpfs, so a write there proves nothing), or a skip when
// bubblewrap cannot run here.
func sbxBase(t *testing.T) string {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("the sandbox is Linux only")
	}
	if err := exec.Command("bwrap", "--ro-bind", "/", "/", "--unshare-pid", "--unshare-net", "true").Run(); err != nil {
		t.Skipf("bubblewrap cannot create namespaces here (%v)", err)
	}
	return sandboxBase(t)
}

// sbxEnv is a clean environment with its own home.
func sbxEnv(t *testing.T, extra ...string) []string {
	home := t.TempDir()
	return append([]string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "XDG_CONFIG_HOME=" + filepath.Join(home, ".config")}, extra...)
}

// sbxScript writes a scripted model built from turns (each a list of
// chunks) and returns its path.
func sbxScript(t *testing.T, turns ...[]map[string]any) string {
	t.Helper()
	var ts []map[string]any
	for _, chunks := range turns {
		ts = append(ts, map[string]any{"chunks": chunks})
	}
	data, err := json.Marshal(map[string]any{"turns": ts})
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "script.json")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// sbxShell is a run_shell_command call, outside the sandbox when outside.
func sbxShell(cmd string, outside bool) []map[string]any {
	args := map[string]any{"command": cmd, "description": "test command"}
	if outside {
		args["outside_sandbox"] = true
	}
	return []map[string]any{{"functionCall": map[string]any{"name": "run_shell_command", "args": args}}}
}

// sbxText is a turn that only answers text.
func sbxText(s string) []map[string]any { return []map[string]any{{"text": s}} }

// sbxToolText is every tool call update of session id, as raw JSON.
func sbxToolText(ed *acptest.Editor, id string) string {
	var b strings.Builder
	for _, u := range ed.Updates(id) {
		if u.Kind == "tool_call_update" {
			b.Write(u.Raw)
		}
	}
	return b.String()
}

// sbxKinds is the option kinds of a permission request.
func sbxKinds(r acptest.PermissionRequest) []string {
	var kinds []string
	for _, o := range r.Options {
		kinds = append(kinds, o.Kind)
	}
	return kinds
}

// TestSandboxOutside: with the workspace-write sandbox, a command writing
// outside the roots fails with the sandbox's note; the model then asks to
// run it outside the sandbox, which is a permission of its own: asked even
// after "always allow" for that command and in yolo mode, offering only
// allow once and reject. Rejecting leaves no file; allowing creates it.
func TestSandboxOutside(t *testing.T) {
	t.Parallel()
	base := sbxBase(t)
	ws, outside := filepath.Join(base, "ws"), filepath.Join(base, "outside")
	for _, d := range []string{ws, outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	target := filepath.Join(outside, "made")
	// The script hides the path from the shell analysis, so "always" can
	// cover the command as the user would see it offered.
	if err := os.WriteFile(filepath.Join(ws, "mk.sh"), []byte("#!/bin/sh\ntouch "+target+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	sc := sbxScript(t,
		sbxShell("./mk.sh", false), sbxShell("./mk.sh", true), sbxText("first done"),
		sbxShell("./mk.sh", true), sbxText("second done"))
	var mu sync.Mutex
	var asked []acptest.PermissionRequest
	fake := acptest.NewFake()
	fake.Answer = func(r acptest.PermissionRequest) (string, map[string]any) {
		mu.Lock()
		defer mu.Unlock()
		asked = append(asked, r)
		switch len(asked) {
		case 1: // the sandboxed run: always allow, when offered
			for _, o := range r.Options {
				if o.Kind == "allow_always" {
					return o.OptionID, nil
				}
			}
			return "proceed_once", nil
		case 2:
			return "reject_once", nil
		}
		return "proceed_once", nil
	}
	ed := acptest.Start(t, companionBin(t), []string{"acp", "--sandbox", "workspace-write", "--script", sc}, sbxEnv(t), fake.Handle)
	ed.Initialize(map[string]any{})
	id := ed.NewSession(ws)
	if r := ed.StopReason(ed.Wait(ed.Prompt(id, "go"))); r != "end_turn" {
		t.Fatalf("stopReason = %q", r)
	}
	text := sbxToolText(ed, id)
	for _, want := range []string{"Read-only file system", "ran in the workspace-write sandbox", "outside_sandbox"} {
		if !strings.Contains(text, want) {
			t.Errorf("the sandboxed run's result lacks %q:\n%s", want, text)
		}
	}
	if exists := sbxExists(target); exists {
		t.Fatal("the file was created although the sandbox run failed and the user rejected the run outside it")
	}
	mu.Lock()
	if len(asked) != 2 {
		t.Fatalf("asked %d times, want 2 (the sandboxed run, then the run outside)", len(asked))
	}
	if !slices.Contains(sbxKinds(asked[0]), "allow_always") {
		t.Errorf("the sandboxed run offered no always option (%v): the test proves nothing", sbxKinds(asked[0]))
	}
	sbxCheckOutsideCard(t, asked[1])
	mu.Unlock()

	if res := ed.Call("session/set_mode", map[string]any{"sessionId": id, "modeId": "yolo"}); res.Error != nil {
		t.Fatalf("set_mode yolo: %v", res.Error)
	}
	if r := ed.StopReason(ed.Wait(ed.Prompt(id, "again"))); r != "end_turn" {
		t.Fatalf("stopReason = %q", r)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(asked) != 3 {
		t.Fatalf("in yolo mode the run outside the sandbox was asked %d times in all, want 3", len(asked))
	}
	sbxCheckOutsideCard(t, asked[2])
	if !sbxExists(target) {
		t.Error("the user allowed the run outside the sandbox, but the file was not created")
	}
}

// sbxCheckOutsideCard checks the card of a run outside the sandbox: its
// title says so and it offers allow once and reject only.
func sbxCheckOutsideCard(t *testing.T, r acptest.PermissionRequest) {
	t.Helper()
	if kinds := sbxKinds(r); !slices.Equal(kinds, []string{"allow_once", "reject_once"}) {
		t.Errorf("the run outside the sandbox offers %v, want [allow_once reject_once]", kinds)
	}
	var names []string
	for _, o := range r.Options {
		names = append(names, o.Name)
	}
	if !slices.Equal(names, []string{"Allow this time", "Reject"}) {
		t.Errorf("the run outside the sandbox offers %q, want [Allow once Reject]", names)
	}
	if !strings.Contains(strings.ToLower(r.ToolCall.Title), "without the sandbox") {
		t.Errorf("card title %q does not say it runs without the sandbox", r.ToolCall.Title)
	}
}

// sbxExists reports whether path exists.
func sbxExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
