package e2e

import (
	"encoding/json"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// TestSessionsByNumber: --list-sessions numbers this folder's sessions
// as Gemini CLI does (1 the oldest, one line each: number, title, age,
// id), -r N and --resume N continue one by its number, --delete-session
// N deletes one, and a number no session has is an error that names the
// command typed (issue 29, item 11).
func TestSessionsByNumber(t *testing.T) {
	t.Parallel()
	e, ws := env(t), workspace(t, nil)
	run := func(args ...string) (stdout, stderr string, code int) {
		cmd := exec.Command(companionBin(t), args...)
		cmd.Env, cmd.Dir = e, ws
		var out, errb strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return out.String(), errb.String(), code
	}
	session := func(args ...string) string {
		t.Helper()
		out, errs, code := run(append([]string{"--demo", "-o", "json"}, args...)...)
		var res struct {
			SessionID string `json:"session_id"`
		}
		if code != 0 || json.Unmarshal([]byte(out), &res) != nil || res.SessionID == "" {
			t.Fatalf("companion %q = %d\n%s\n%s", args, code, out, errs)
		}
		return res.SessionID
	}
	if out, _, code := run("--list-sessions"); code != 0 || !strings.Contains(out, "No stored sessions") {
		t.Errorf("empty list: %d %s", code, out)
	}
	ids := []string{session("-p", "alpha question"), session("-p", "beta question"), session("-p", "gamma question")}
	out, errs, code := run("--list-sessions")
	line := regexp.MustCompile(`(?m)^  (\d+)\. (.+?) \(([^)]+)\) \[([^\]]+)\]$`)
	got := line.FindAllStringSubmatch(out, -1)
	if code != 0 || len(got) != 3 {
		t.Fatalf("list: %d\n%s\n%s", code, out, errs)
	}
	for i, m := range got {
		if m[1] != string(rune('1'+i)) || m[4] != ids[i] || !strings.Contains(m[2], []string{"alpha", "beta", "gamma"}[i]) || m[3] != "just now" {
			t.Errorf("line %d = %q", i+1, m[0])
		}
	}
	if got := session("-r", "1", "-p", "more"); got != ids[0] {
		t.Errorf("-r 1 continued %s, want %s", got, ids[0])
	}
	if got := session("-p", "more", "--resume", "2"); got != ids[1] {
		t.Errorf("--resume 2 continued %s, want %s", got, ids[1])
	}
	if out, errs, code := run("--delete-session", "2"); code != 0 || !strings.Contains(out, ids[1]) {
		t.Errorf("delete 2: %d %s %s", code, out, errs)
	}
	out, _, _ = run("--list-sessions")
	if got := line.FindAllStringSubmatch(out, -1); len(got) != 2 || got[0][4] != ids[0] || got[1][4] != ids[2] || got[1][1] != "2" {
		t.Errorf("after delete:\n%s", out)
	}
	if _, errs, code := run("--delete-session", "7"); code != 2 || !strings.Contains(errs, "companion: cannot delete: no stored session numbered 7") {
		t.Errorf("delete 7: %d %s", code, errs)
	}
	if _, errs, code := run("--demo", "-p", "hi", "-r", "9"); code != 1 || !strings.HasPrefix(errs, "companion: cannot continue: no stored session numbered 9") {
		t.Errorf("-r 9: %d %s", code, errs)
	}
	if _, errs, code := run("run", "--demo", "-p", "hi", "-r", "9"); code != 1 || !strings.HasPrefix(errs, "companion run: cannot continue") {
		t.Errorf("run -r 9: %d %s", code, errs)
	}
}
