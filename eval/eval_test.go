package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"companion/agent/model/scripted"
)

// buildCompanion builds the companion binary into a test folder, or
// returns the prebuilt one COMPANION_E2E_BIN names (make test-all sets it
// to the binary it built, which the e2e tests drive too).
func buildCompanion(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not on PATH")
	}
	if p := os.Getenv("COMPANION_E2E_BIN"); p != "" {
		return p
	}
	bin := filepath.Join(t.TempDir(), "companion")
	out, err := exec.Command("go", "build", "-ldflags=-s -w", "-o", bin, "companion/cmd/companion").CombinedOutput()
	if err != nil {
		t.Fatalf("build companion: %v\n%s", err, out)
	}
	return bin
}

// runEval runs the command in process and returns its exit code, stdout
// and stderr.
func runEval(t *testing.T, getenv func(string) string, args ...string) (int, []byte, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), args, &stdout, &stderr, getenv)
	return code, stdout.Bytes(), stderr.String()
}

// TestScriptedRuns runs the runner on the tasks that have scripted
// solutions (what CI keeps working): each passes its check
// (skill-changelog through activate_skill and the skill's script,
// sh-web-fact through a grounded google_web_search, py-ask-design through
// ask_user, go-lsp-rename through gopls's rename, go-type-error through
// gopls's diagnostics after an edit), and the report carries every field;
// the deliberately wrong scripts (edit the test instead of the code, write
// a file and answer wrongly, edit CHANGELOG.md by hand against the skill,
// guess the Go releases without searching, pick a design without asking,
// rename with sed, drop an error in one blind edit) fail the same checks; and a model that never finishes is cut off at --timeout. The
// subtests share one binary.
func TestScriptedRuns(t *testing.T) {
	bin := buildCompanion(t)
	t.Run("solutions pass", func(t *testing.T) { checkScripted(t, bin, "solutions", "pass") })
	t.Run("wrong scripts fail", func(t *testing.T) { checkScripted(t, bin, filepath.Join("testdata", "wrong"), "fail") })
	t.Run("timeout", func(t *testing.T) { checkTimeout(t, bin) })
	t.Run("openai-compatible server", func(t *testing.T) { checkOpenAIServer(t, bin) })
}

// checkOpenAIServer runs a task against a local OpenAI-compatible server
// (the scripted one, serving the task's solution) through
// --openai-base-url and --model, the way a user runs a local model: no key
// and no --scripts.
func checkOpenAIServer(t *testing.T, bin string) {
	script, err := scripted.LoadScript(filepath.Join("solutions", "go-question.json"))
	if err != nil {
		t.Fatal(err)
	}
	srv, err := scripted.NewOpenAIServer(script, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	rep, stdout := runReport(t, "--bin", bin, "--tasks-dir", "tasks", "--tasks", "go-question",
		"--openai-base-url", srv.URL(), "--model", "local-coder")
	if len(rep.Tasks) != 1 || rep.Tasks[0].Status != "pass" || rep.Provider != "openai" || rep.Model != "local-coder" {
		t.Errorf("report %s, want go-question passed through the openai provider", stdout)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("the server got %d requests, want 2", len(reqs))
	}
	if m := reqs[0].Body["model"]; m != "local-coder" {
		t.Errorf("the request was for model %v, want local-coder", m)
	}
}

// checkScripted runs the tasks that have a script in scripts and expects
// each to end with wantStatus, its usage counted.
func checkScripted(t *testing.T, bin, scripts, wantStatus string) {
	rep, stdout := runReport(t, "--bin", bin, "--tasks-dir", "tasks", "--scripts", scripts, "--parallel", "3", "--timeout", "2m",
		"--tasks", strings.Join(scriptedTasks(t), ","))
	names := []string{}
	for _, r := range rep.Tasks {
		names = append(names, r.Name)
		if r.Status != wantStatus || r.Passed != (wantStatus == "pass") {
			t.Errorf("%s: status %q, passed %v; want %q\ncheck: %s\nerror: %s", r.Name, r.Status, r.Passed,
				wantStatus, r.CheckOutput, r.Error)
		}
		if r.Requests < 2 || r.ToolCalls < 1 || r.InputTokens <= 0 || r.OutputTokens <= 0 || r.Tokens < r.InputTokens {
			t.Errorf("%s: requests %d, tool calls %d, tokens %d in / %d out / %d; want them counted",
				r.Name, r.Requests, r.ToolCalls, r.InputTokens, r.OutputTokens, r.Tokens)
		}
	}
	want := scriptedTasks(t)
	if !slices.Equal(names, want) {
		t.Errorf("tasks run = %v, want %v", names, want)
	}
	wantPassed := 0
	if wantStatus == "pass" {
		wantPassed = len(want)
	}
	if rep.Total.Tasks != len(want) || rep.Total.Passed != wantPassed || !rep.Scripted || rep.ApprovalMode != "yolo" {
		t.Errorf("total %+v, scripted %v, mode %q", rep.Total, rep.Scripted, rep.ApprovalMode)
	}
	assertFields(t, stdout)
}

// scriptedTasks are the tasks with a scripted solution, in the report's
// order; the two that need gopls (go-lsp-rename, go-type-error) only when
// it is installed (make tools builds it; CI runs the tests through make).
func scriptedTasks(t *testing.T) []string {
	if _, err := exec.LookPath("gopls"); err != nil {
		t.Log("gopls is not installed: go-lsp-rename and go-type-error are not run (make tools builds the pinned gopls into bin/tools)")
		return []string{"go-fix-failing-test", "go-question", "py-ask-design", "sh-web-fact", "skill-changelog"}
	}
	return []string{"go-fix-failing-test", "go-lsp-rename", "go-question", "go-type-error", "py-ask-design", "sh-web-fact", "skill-changelog"}
}

// checkTimeout: a model that never finishes is cut off at --timeout and
// the task counts as a timeout, not a pass.
func checkTimeout(t *testing.T, bin string) {
	rep, stdout := runReport(t, "--bin", bin, "--tasks-dir", "tasks", "--scripts", filepath.Join("testdata", "hang"), "--timeout", "1s")
	if len(rep.Tasks) != 1 || rep.Tasks[0].Status != "timeout" || rep.Tasks[0].Passed || rep.Total.Errors != 1 {
		t.Errorf("report %s, want one task that timed out", stdout)
	}
}

// runReport runs the command with --json and no environment, expects exit
// code 0 and returns the report and its JSON.
func runReport(t *testing.T, args ...string) (Report, []byte) {
	t.Helper()
	code, stdout, stderr := runEval(t, func(string) string { return "" }, append(args, "--json")...)
	if code != 0 {
		t.Fatalf("exit code %d\n%s", code, stderr)
	}
	var rep Report
	if err := json.Unmarshal(stdout, &rep); err != nil {
		t.Fatalf("report: %v\n%s", err, stdout)
	}
	return rep, stdout
}

// assertFields checks the raw JSON report for the fields its readers use.
func assertFields(t *testing.T, report []byte) {
	t.Helper()
	var raw struct {
		Tasks []map[string]json.RawMessage `json:"tasks"`
		Total map[string]json.RawMessage   `json:"total"`
	}
	if err := json.Unmarshal(report, &raw); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"tasks", "passed", "pass_rate", "tokens", "input_tokens", "output_tokens", "requests", "duration_ms", "wall_ms"} {
		if _, ok := raw.Total[k]; !ok {
			t.Errorf("total has no %q", k)
		}
	}
	for _, task := range raw.Tasks {
		for _, k := range []string{"name", "languages", "status", "passed", "tokens", "input_tokens", "output_tokens", "requests", "tool_calls", "duration_ms"} {
			if _, ok := task[k]; !ok {
				t.Errorf("task %s has no %q", task["name"], k)
			}
		}
	}
}

// TestNoModelSaysHowToRun: without a key, a server or scripts the runner
// runs nothing, says how to run it, and exits 2.
func TestNoModelSaysHowToRun(t *testing.T) {
	env := map[string]string{"HOME": t.TempDir()}
	code, stdout, stderr := runEval(t, func(k string) string { return env[k] }, "--bin", "/nonexistent/companion")
	if code != 2 || len(stdout) != 0 {
		t.Fatalf("exit %d, stdout %q; want 2 and nothing", code, stdout)
	}
	for _, want := range []string{"GEMINI_API_KEY", "--openai-base-url", "--scripts"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("the advice does not mention %s:\n%s", want, stderr)
		}
	}
}

// TestSuiteCoversTheBrief checks the task folders: at least 20 tasks that
// load, across the five languages, each saying what it measures, with an
// executable check.
func TestSuiteCoversTheBrief(t *testing.T) {
	tasks, err := loadTasks("tasks", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(tasks) < 20 {
		t.Errorf("%d tasks, want at least 20", len(tasks))
	}
	langs := map[string]bool{}
	for _, task := range tasks {
		if len(task.Languages) == 0 || task.Skill == "" {
			t.Errorf("%s: task.json lacks languages or skill", task.Name)
		}
		for _, l := range task.Languages {
			langs[l] = true
		}
		info, err := os.Stat(filepath.Join(task.Dir, "check.sh"))
		if err != nil || info.Mode()&0o100 == 0 {
			t.Errorf("%s: check.sh missing or not executable (%v)", task.Name, err)
		}
	}
	for _, l := range []string{"go", "python", "typescript", "javascript", "shell"} {
		if !langs[l] {
			t.Errorf("no task in %s", l)
		}
	}
}

func TestMatches(t *testing.T) {
	tests := []struct {
		name, pattern string
		want          bool
	}{
		{"go-add-flag", "", true},
		{"go-add-flag", "go-*", true},
		{"go-add-flag", "py-*, go-add-*", true},
		{"py-add-flag", "go-*", false},
		{"sh-add-flag", "*-add-flag", true},
	}
	for _, tt := range tests {
		if got, err := matches(tt.name, tt.pattern); err != nil || got != tt.want {
			t.Errorf("matches(%q, %q) = %v, %v; want %v", tt.name, tt.pattern, got, err, tt.want)
		}
	}
	if _, err := matches("x", "["); err == nil {
		t.Error("a bad glob: no error")
	}
}

// TestTableReport checks the text report's rows, totals and reasons.
func TestTableReport(t *testing.T) {
	rep := newReport(options{approvalMode: "yolo"}, []Result{
		{Name: "a", Languages: []string{"go"}, Status: "pass", Passed: true, Requests: 3, InputTokens: 100, OutputTokens: 10, Tokens: 110, DurationMS: 1500},
		{Name: "b", Languages: []string{"python"}, Status: "fail", Requests: 1, InputTokens: 50, OutputTokens: 5, Tokens: 55, CheckOutput: "x\nthe answer does not say 7421\n"},
		{Name: "c", Languages: []string{"shell"}, Status: "timeout", Error: "the agent did not finish in 1s"},
	}, 0)
	if rep.Total.Passed != 1 || rep.Total.Errors != 1 || rep.Total.Tokens != 165 || rep.Total.Requests != 4 {
		t.Errorf("totals %+v", rep.Total)
	}
	var b bytes.Buffer
	if err := writeTable(&b, rep); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"pass rate 33% (1 of 3)", "1/3 pass", "b: fail: the answer does not say 7421",
		"c: timeout: the agent did not finish in 1s"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the table lacks %q:\n%s", want, b.String())
		}
	}
}
