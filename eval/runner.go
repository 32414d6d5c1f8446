package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// runner holds what every task's run shares.
type runner struct {
	bin          string // the companion binary
	model        string
	provider     string
	approvalMode string
	scripts      string // a folder of <task>.json scripted models, or ""
	settings     string // a settings file for the agent, or ""
	timeout      time.Duration
	keep         bool
	workRoot     string   // where the tasks' folders are made
	env          []string // the agent's environment, before its home
	log          *slog.Logger
}

// Result is one task's outcome.
type Result struct {
	Name      string   `json:"name"`
	Languages []string `json:"languages"`
	Skill     string   `json:"skill,omitempty"`
	// Status is pass, fail (the check failed), error (the agent or the
	// runner failed; the check still ran) or timeout.
	Status       string `json:"status"`
	Passed       bool   `json:"passed"`
	InputTokens  int64  `json:"input_tokens"`
	OutputTokens int64  `json:"output_tokens"`
	// ThoughtTokens and CachedTokens are part of the model's usage as
	// the result event reports it; Tokens is input + output + thought.
	ThoughtTokens int64 `json:"thought_tokens"`
	CachedTokens  int64 `json:"cache_read_input_tokens"`
	Tokens        int64 `json:"tokens"`
	// Requests is the number of model requests (the result's num_turns).
	Requests   int   `json:"requests"`
	ToolCalls  int   `json:"tool_calls"`
	DurationMS int64 `json:"duration_ms"`
	// CheckOutput is the end of check.sh's output.
	CheckOutput string `json:"check_output,omitempty"`
	Error       string `json:"error,omitempty"`
	// Dir is the task's working folder, with --keep.
	Dir string `json:"dir,omitempty"`
}

// resultEvent is what the runner reads of stream-json's result line.
type resultEvent struct {
	Subtype  string   `json:"subtype"`
	Result   string   `json:"result"`
	IsError  bool     `json:"is_error"`
	NumTurns int      `json:"num_turns"`
	Errors   []string `json:"errors"`
	Usage    struct {
		Input   int64 `json:"input_tokens"`
		Output  int64 `json:"output_tokens"`
		Thought int64 `json:"thought_tokens"`
		Cached  int64 `json:"cache_read_input_tokens"`
	} `json:"usage"`
}

// transcript is what one agent run printed, read from its stream-json.
type transcript struct {
	answer    strings.Builder // every assistant text block, in order
	toolCalls int
	tools     []string // the names of the tools called, in order
	result    *resultEvent
}

// run does one task: prepare its folder, run the agent, run the check.
func (r *runner) run(ctx context.Context, t Task) Result {
	res := Result{Name: t.Name, Languages: t.Languages, Skill: t.Skill}
	dir, err := os.MkdirTemp(r.workRoot, t.Name+"-")
	if err != nil {
		res.Status, res.Error = "error", err.Error()
		return res
	}
	if r.keep {
		res.Dir = dir
	} else {
		defer os.RemoveAll(dir)
	}
	repo := filepath.Join(dir, "repo")
	if err := prepare(ctx, t, dir, repo); err != nil {
		res.Status, res.Error = "error", err.Error()
		return res
	}
	started := time.Now()
	tr, agentErr := r.agent(ctx, t, dir, repo)
	res.DurationMS = time.Since(started).Milliseconds()
	res.ToolCalls = tr.toolCalls
	if ev := tr.result; ev != nil {
		res.InputTokens, res.OutputTokens = ev.Usage.Input, ev.Usage.Output
		res.ThoughtTokens, res.CachedTokens = ev.Usage.Thought, ev.Usage.Cached
		res.Tokens = ev.Usage.Input + ev.Usage.Output + ev.Usage.Thought
		res.Requests = ev.NumTurns
	}
	answer := filepath.Join(dir, "answer.txt")
	err = os.WriteFile(answer, []byte(tr.finalAnswer()), 0o644)
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, "tools.txt"), []byte(toolLines(tr.tools)), 0o644)
	}
	if err != nil {
		res.Status, res.Error = "error", err.Error()
		return res
	}
	out, checkErr := r.check(ctx, t, dir, repo, answer)
	res.CheckOutput = tail(out, 1500)
	res.Passed = agentErr == nil && checkErr == nil
	switch {
	case errors.Is(agentErr, context.DeadlineExceeded):
		res.Status, res.Error = "timeout", fmt.Sprintf("the agent did not finish in %s", r.timeout)
	case agentErr != nil:
		res.Status, res.Error = "error", agentErr.Error()
	case res.Passed:
		res.Status = "pass"
	default:
		res.Status = "fail"
	}
	return res
}

// prepare copies the task's repository (and outside/, when the task has
// one) into dir and commits it to a new git repository, so the agent sees
// a clean work tree and a check can ask git what changed.
func prepare(ctx context.Context, t Task, dir, repo string) error {
	if err := copyTree(filepath.Join(t.Dir, "repo"), repo); err != nil {
		return fmt.Errorf("copy the repository: %w", err)
	}
	outside := filepath.Join(t.Dir, "outside")
	if _, err := os.Stat(outside); err == nil {
		if err := copyTree(outside, filepath.Join(dir, "outside")); err != nil {
			return fmt.Errorf("copy outside/: %w", err)
		}
	}
	for _, args := range [][]string{
		{"init", "-q", "-b", "main"},
		{"add", "-A"},
		{"-c", "user.name=eval", "-c", "user.email=eval@example.invalid", "-c", "commit.gpgsign=false",
			"commit", "-q", "-m", "Starting point of the task"},
	} {
		cmd := exec.CommandContext(ctx, "git", args...)
		cmd.Dir = repo
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("git %s: %w: %s", args[0], err, bytes.TrimSpace(out))
		}
	}
	return nil
}

// agent runs `companion run` in repo and reads its stream-json output. Its
// whole output is kept in dir as transcript.jsonl and agent.stderr.
func (r *runner) agent(ctx context.Context, t Task, dir, repo string) (*transcript, error) {
	ctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	mode := r.approvalMode
	if t.ApprovalMode != "" {
		mode = t.ApprovalMode
	}
	args := []string{"run", "--output-format", "stream-json", "--approval-mode", mode, "-p", t.Prompt}
	if r.model != "" {
		args = append(args, "--model", r.model)
	}
	if r.provider != "" {
		args = append(args, "--provider", r.provider)
	}
	if r.scripts != "" {
		args = append(args, "--script", filepath.Join(r.scripts, t.Name+".json"))
	}
	home := filepath.Join(dir, "home")
	env, err := agentEnv(r.env, home, r.settings)
	if err != nil {
		return &transcript{}, err
	}
	cmd := exec.CommandContext(ctx, r.bin, args...)
	cmd.Dir, cmd.Env = repo, env
	// An interrupt lets companion cancel the turn and stop its commands.
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 10 * time.Second
	stderr, err := os.Create(filepath.Join(dir, "agent.stderr"))
	if err != nil {
		return &transcript{}, err
	}
	defer stderr.Close()
	cmd.Stderr = stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return &transcript{}, err
	}
	if err := cmd.Start(); err != nil {
		return &transcript{}, fmt.Errorf("start companion: %w", err)
	}
	tr, readErr := readStream(stdout, filepath.Join(dir, "transcript.jsonl"))
	waitErr := cmd.Wait()
	switch {
	case ctx.Err() != nil:
		return tr, ctx.Err()
	case waitErr != nil:
		return tr, fmt.Errorf("companion run: %w (%s)", waitErr, lastLine(filepath.Join(dir, "agent.stderr")))
	case readErr != nil:
		return tr, readErr
	case tr.result == nil:
		return tr, errors.New("companion run printed no result")
	case tr.result.IsError:
		return tr, fmt.Errorf("companion run ended with %s: %s", tr.result.Subtype, strings.Join(tr.result.Errors, "; "))
	}
	return tr, nil
}

// readStream reads stream-json lines from out, copying them to a file.
func readStream(out io.Reader, copyTo string) (*transcript, error) {
	tr := &transcript{}
	f, err := os.Create(copyTo)
	if err != nil {
		_, _ = io.Copy(io.Discard, out)
		return tr, err
	}
	defer f.Close()
	sc := bufio.NewScanner(io.TeeReader(out, f))
	sc.Buffer(make([]byte, 0, 64*1024), 64*1024*1024)
	for sc.Scan() {
		tr.add(sc.Bytes())
	}
	if err := sc.Err(); err != nil {
		_, _ = io.Copy(io.Discard, out)
		return tr, fmt.Errorf("read companion's output: %w", err)
	}
	return tr, nil
}

// add reads one stream-json line; lines it does not know are skipped.
func (tr *transcript) add(line []byte) {
	var msg struct {
		Type    string `json:"type"`
		Message struct {
			Content []struct {
				Type string `json:"type"`
				Text string `json:"text"`
				Name string `json:"name"`
			} `json:"content"`
		} `json:"message"`
	}
	if json.Unmarshal(line, &msg) != nil {
		return
	}
	switch msg.Type {
	case "assistant":
		for _, c := range msg.Message.Content {
			switch c.Type {
			case "text":
				tr.answer.WriteString(c.Text)
				tr.answer.WriteString("\n")
			case "tool_use":
				tr.toolCalls++
				tr.tools = append(tr.tools, c.Name)
			}
		}
	case "result":
		var ev resultEvent
		if json.Unmarshal(line, &ev) == nil {
			tr.result = &ev
		}
	}
}

// finalAnswer is the text of the turn's last answer (the result line's),
// else everything the agent wrote.
func (tr *transcript) finalAnswer() string {
	if tr.result != nil && strings.TrimSpace(tr.result.Result) != "" {
		return tr.result.Result
	}
	return tr.answer.String()
}

// check runs the task's check.sh in the finished repository. It gets
// EVAL_TASK_DIR (the task's pristine folder), EVAL_ANSWER (a file with the
// agent's text), EVAL_TOOLS (a file with the names of the tools the agent
// called, one a line, in order), EVAL_TRANSCRIPT (the run's stream-json,
// for checks of how the agent worked: what it called tools with, what
// they answered) and EVAL_OUTSIDE (the folder beside the repository).
func (r *runner) check(ctx context.Context, t Task, dir, repo, answer string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	script, err := filepath.Abs(filepath.Join(t.Dir, "check.sh"))
	if err != nil {
		return "", err
	}
	taskDir, err := filepath.Abs(t.Dir)
	if err != nil {
		return "", err
	}
	cmd := exec.CommandContext(ctx, "bash", script)
	cmd.Dir = repo
	cmd.Env = append(os.Environ(), "EVAL_TASK_DIR="+taskDir, "EVAL_ANSWER="+answer,
		"EVAL_TOOLS="+filepath.Join(dir, "tools.txt"), "EVAL_TRANSCRIPT="+filepath.Join(dir, "transcript.jsonl"),
		"EVAL_OUTSIDE="+filepath.Join(dir, "outside"), "GOTOOLCHAIN=local")
	ownGroup(cmd)
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// agentEnv is env with a home of the agent's own under home: no user
// settings, memory files or sessions leak into a task (settings, when set,
// is copied in as the agent's settings file). Go's caches stay shared so
// the agent's builds and tests do not start cold.
func agentEnv(env []string, home, settings string) ([]string, error) {
	cfg := filepath.Join(home, ".config")
	if err := os.MkdirAll(filepath.Join(cfg, "companion"), 0o755); err != nil {
		return nil, err
	}
	if settings != "" {
		data, err := os.ReadFile(settings)
		if err != nil {
			return nil, fmt.Errorf("read --settings: %w", err)
		}
		if err := os.WriteFile(filepath.Join(cfg, "companion", "settings.json"), data, 0o600); err != nil {
			return nil, err
		}
	}
	out := make([]string, 0, len(env)+5)
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "COMPANION_SETTINGS", "COMPANION_STATE_DIR", "GEMINI_MODEL":
			continue
		}
		out = append(out, kv)
	}
	return append(out, "HOME="+home, "XDG_CONFIG_HOME="+cfg,
		"XDG_STATE_HOME="+filepath.Join(home, ".local", "state"), "GOTOOLCHAIN=local"), nil
}

// toolLines is names one a line.
func toolLines(names []string) string {
	if len(names) == 0 {
		return ""
	}
	return strings.Join(names, "\n") + "\n"
}

// tail is the last n bytes of s.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}

// lastLine is the last non-empty line of a file, for error messages.
func lastLine(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	return tail(lines[len(lines)-1], 300)
}
