package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"companion/internal/testkit/acptest"
)

// holeRun is one session replaying shell lines of issue 14: the model
// runs lines in turn (then calls, tool calls as modelCall writes them),
// one per turn, and the fake editor answers each permission request in
// order (the last answer repeats).
type holeRun struct {
	settings string
	// mode, when set, is the session's mode (session/set_mode) before
	// the prompt.
	mode    string
	lines   []string
	calls   []string
	answers []string
}

// run plays the lines and calls in a session rooted at ws and returns the
// permission requests the editor saw.
func (h holeRun) run(t *testing.T, ws string) []acptest.PermissionRequest {
	t.Helper()
	var chunks []string
	for _, line := range h.lines {
		chunks = append(chunks, `{"chunks":[`+shellCall(line)+`]}`)
	}
	for _, call := range h.calls {
		chunks = append(chunks, `{"chunks":[`+call+`]}`)
	}
	chunks = append(chunks, `{"chunks":[{"text":"done"}]}`)
	fake := acptest.NewFake()
	n := 0
	fake.Answer = func(acptest.PermissionRequest) (string, map[string]any) {
		a := h.answers[min(n, len(h.answers)-1)]
		n++
		return a, nil
	}
	ed := startAgent(t, agentOpts{handler: fake.Handle, settings: h.settings,
		script: `{"turns":[` + strings.Join(chunks, ",") + `],"fallback":"error"}`})
	defer ed.Close()
	ed.Initialize(map[string]any{})
	id := ed.NewSession(ws)
	if h.mode != "" {
		if res := ed.Call("session/set_mode", map[string]any{"sessionId": id, "modeId": h.mode}); res.Error != nil {
			t.Fatalf("set_mode %s: %v", h.mode, res.Error)
		}
	}
	if got := ed.StopReason(ed.Wait(ed.Prompt(id, "go"))); got != "end_turn" {
		t.Fatalf("stopReason = %q\n%s", got, ed.Stderr())
	}
	return fake.Permissions
}

// askedAbout reports whether a permission request shows line.
func askedAbout(req acptest.PermissionRequest, line string) bool {
	for _, c := range req.ToolCall.Content {
		var v any
		if json.Unmarshal(c, &v) == nil && strings.Contains(fmt.Sprint(v), line) {
			return true
		}
	}
	return strings.Contains(req.ToolCall.Title, line)
}

// checkAsked fails unless the requests after the first skip ones ask about
// the lines, in order.
func checkAsked(t *testing.T, reqs []acptest.PermissionRequest, skip int, lines []string) {
	t.Helper()
	if len(reqs) != skip+len(lines) {
		t.Fatalf("asked %d times, want %d", len(reqs), skip+len(lines))
	}
	for i, line := range lines {
		if !askedAbout(reqs[skip+i], line) {
			t.Errorf("request %d does not show %q: %s", skip+i, line, reqs[skip+i].ToolCall.Content)
		}
	}
}

// noFile fails when path exists.
func noFile(t *testing.T, path string) {
	t.Helper()
	if _, err := os.Lstat(path); err == nil {
		t.Errorf("%s was created: a line ran unasked", path)
	}
}

// TestHoleValuesEvaluated (issue 14, hole 1): after "always allow ls",
// lines hiding a command in a value bash evaluates are still asked about;
// rejected, nothing runs.
func TestHoleValuesEvaluated(t *testing.T) {
	t.Parallel()
	ws := workspace(t, nil)
	const x = `x='a[$(touch PWNED)]'; `
	crafted := []string{
		x + "ls $((x))", x + "ls ${x@P}", x + "ls ${!x}", x + "[[ $x -eq 0 ]]; ls", x + "(( x )); ls",
		x + "ls ${a[x]}", x + "ls ${x:x}", x + "ls $[x]", x + "case 1 in $((x))) ls;; esac",
		x + "ls $(( x + 1 ))", x + "[[ -v $x ]]; ls", x + "ls ${x:0:x}",
	}
	reqs := holeRun{lines: append([]string{"ls"}, crafted...), answers: []string{"proceed_always", "reject_once"}}.run(t, ws)
	checkAsked(t, reqs, 1, crafted)
	noFile(t, filepath.Join(ws, "PWNED"))
}

// TestHoleCdMovesBase (issue 14, hole 3): after "always allow cd, ls",
// a write after cd is asked about, since its folder is not the workspace.
func TestHoleCdMovesBase(t *testing.T) {
	t.Parallel()
	ws := workspace(t, nil)
	outside := t.TempDir()
	crafted := []string{
		"cd " + outside + " && ls > PWNED",
		"(cd " + outside + "; ls >> PWNED)",
		"pushd " + outside + " && ls &> PWNED",
	}
	reqs := holeRun{lines: append([]string{"cd . && ls"}, crafted...), answers: []string{"proceed_always", "reject_once"}}.run(t, ws)
	checkAsked(t, reqs, 1, crafted)
	noFile(t, filepath.Join(outside, "PWNED"))
	noFile(t, filepath.Join(ws, "PWNED"))
}

// TestHoleDenyByPath (issue 14, hole 4): a deny rule for rm holds for rm
// by path and through wrappers, even though the editor would allow.
func TestHoleDenyByPath(t *testing.T) {
	t.Parallel()
	ws := workspace(t, map[string]string{"keep.txt": "keep\n"})
	var crafted []string
	for _, rm := range []string{"/bin/rm", "/usr/bin/rm"} {
		if _, err := os.Stat(rm); err == nil {
			crafted = append(crafted, rm+" keep.txt", "command "+rm+" keep.txt", "env "+rm+" keep.txt",
				"timeout 5 "+rm+" keep.txt", "nice "+rm+" keep.txt")
		}
	}
	crafted = append(crafted, "exec rm keep.txt", "xargs rm <<< keep.txt", "find . -name keep.txt -exec /bin/rm {} +",
		"bash -c '/bin/rm keep.txt'")
	if _, err := exec.LookPath("busybox"); err == nil {
		crafted = append(crafted, "busybox rm keep.txt")
	}
	reqs := holeRun{settings: `{"permissions":{"deny":["run_shell_command(rm)"]}}`, lines: crafted,
		answers: []string{"proceed_once"}}.run(t, ws)
	if len(reqs) != 0 {
		t.Errorf("asked %d times; denied lines must not reach the user", len(reqs))
	}
	if got := readFile(t, filepath.Join(ws, "keep.txt")); got != "keep\n" {
		t.Errorf("keep.txt = %q, want it untouched", got)
	}
}

// TestHoleBroadRule (issue 14, hole 6): a broad "git" rule does not cover
// options that run programs or write files, and the "always" option says
// exactly which commands it allows.
func TestHoleBroadRule(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	ws := workspace(t, map[string]string{"a.txt": "a\n"})
	outside := t.TempDir()
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "x"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = ws
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	crafted := []string{
		"git -c core.fsmonitor='touch PWNED' status",
		"git -c alias.x='!touch PWNED' x",
		"git diff --output=" + filepath.Join(outside, "f") + " HEAD",
		"git --config-env=core.pager=HOME log",
	}
	reqs := holeRun{settings: `{"permissions":{"allow":["run_shell_command(git)"]}}`,
		lines: append([]string{"git status", "ls && git status && git diff"}, crafted...), answers: []string{"reject_once"}}.run(t, ws)
	checkAsked(t, reqs, 1, crafted)
	if len(reqs) > 0 {
		labels := optionNames(reqs[0])
		if !strings.Contains(labels, "Allow ls, git status and git diff for this session") {
			t.Errorf("options of %q = %s, want the label naming ls, git status and git diff", "ls && git status && git diff", labels)
		}
	}
	noFile(t, filepath.Join(ws, "PWNED"))
	noFile(t, filepath.Join(outside, "f"))
}

// optionNames joins the labels of a request's options.
func optionNames(req acptest.PermissionRequest) string {
	var names []string
	for _, o := range req.Options {
		names = append(names, o.Name)
	}
	return strings.Join(names, " | ")
}
