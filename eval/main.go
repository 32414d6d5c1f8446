package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

const usage = `Usage: go run ./eval [flags]     (or: make eval EVAL_FLAGS="...")

Runs companion's task suite (eval/tasks): each task's repository is copied to a temporary folder,
` + "`companion run`" + ` works on its prompt there, and the task's check.sh decides pass or fail.

Flags:
`

const howTo = `eval: no model to run the tasks with.

Run the suite with one of:
  GEMINI_API_KEY=... go run ./eval                         Gemini (default model ` + "`companion run`" + ` picks; --model to choose)
  go run ./eval --provider openai --openai-base-url http://localhost:11434/v1 --model qwen2.5-coder:14b
                                                           an OpenAI-compatible server (Ollama, llama.cpp, vLLM, LM Studio);
                                                           OPENAI_API_KEY when the server wants one
  OPENAI_API_KEY=... go run ./eval --provider openai --model gpt-4.1
  go run ./eval --scripts eval/solutions                   the scripted model: only the tasks with a script (what CI runs)
Other flags: --tasks 'go-*,py-*' --parallel 2 --timeout 10m --keep --json. See eval/README.md.
`

// options are the command line's flags.
type options struct {
	bin, model, provider, openAIBaseURL, approvalMode string
	tasksDir, tasks, scripts, settings                string
	parallel                                          int
	timeout                                           time.Duration
	keep, asJSON                                      bool
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr, os.Getenv)
	stop()
	os.Exit(code)
}

// run is the whole command: exit code 0 when the suite ran (whatever its
// pass rate), 1 when it could not run, 2 on bad usage or no model.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	opts, code := parseFlags(args, stderr)
	if code >= 0 {
		return code
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	if !hasModel(opts, getenv) {
		fmt.Fprint(stderr, howTo)
		return 2
	}
	tasks, err := loadTasks(opts.tasksDir, opts.tasks)
	if err == nil {
		tasks, err = withScripts(tasks, opts.scripts)
	}
	if err != nil {
		log.Error("eval", "err", err)
		return 1
	}
	if len(tasks) == 0 {
		log.Error("eval: no task matches", "tasks", opts.tasks, "dir", opts.tasksDir)
		return 1
	}
	work, err := os.MkdirTemp("", "companion-eval-")
	if err != nil {
		log.Error("eval", "err", err)
		return 1
	}
	if !opts.keep {
		defer os.RemoveAll(work)
	}
	r, err := newRunner(ctx, opts, work, log)
	if err != nil {
		log.Error("eval", "err", err)
		return 1
	}
	started := time.Now()
	results := runAll(ctx, r, tasks, opts.parallel)
	rep := newReport(opts, results, time.Since(started))
	if opts.asJSON {
		err = writeJSON(stdout, rep)
	} else {
		err = writeTable(stdout, rep)
	}
	if err != nil {
		log.Error("eval", "err", err)
		return 1
	}
	if opts.keep {
		log.Info("eval: task folders kept", "dir", work)
	}
	return 0
}

// parseFlags returns the options and -1, or an exit code.
func parseFlags(args []string, stderr io.Writer) (options, int) {
	var o options
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage); fs.PrintDefaults() }
	fs.StringVar(&o.bin, "bin", "", "the companion `binary` to run (default: build ./cmd/companion once)")
	fs.StringVar(&o.model, "model", "", "the `model` for companion run (default: companion's)")
	fs.StringVar(&o.provider, "provider", "", "model `provider`: gemini or openai (OpenAI-compatible)")
	fs.StringVar(&o.openAIBaseURL, "openai-base-url", "", "an OpenAI-compatible server's `URL`, e.g. http://localhost:11434/v1 (implies --provider openai)")
	fs.StringVar(&o.approvalMode, "approval-mode", "yolo", "approval `mode` for tasks that do not set theirs: yolo, auto-edit, default or plan")
	fs.StringVar(&o.tasksDir, "tasks-dir", defaultTasksDir(), "the `folder` holding the tasks")
	fs.StringVar(&o.tasks, "tasks", "", "comma-separated name `globs` of the tasks to run, e.g. 'go-*,sh-*' (default all)")
	fs.StringVar(&o.scripts, "scripts", "", "use the scripted model: `folder` of <task>.json scripts; tasks without one are skipped")
	fs.StringVar(&o.settings, "settings", "", "a companion settings `file` for the agent (by default it runs with none)")
	fs.IntVar(&o.parallel, "parallel", 1, "tasks run at once")
	fs.DurationVar(&o.timeout, "timeout", 10*time.Minute, "time allowed for the agent on one task")
	fs.BoolVar(&o.keep, "keep", false, "keep the tasks' temporary folders (transcript.jsonl, tools.txt, agent.stderr, answer.txt, repo/)")
	fs.BoolVar(&o.asJSON, "json", false, "print the report as JSON instead of a table")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return o, 0
		}
		return o, 2
	}
	if fs.NArg() > 0 || o.parallel < 1 || o.timeout <= 0 {
		fmt.Fprintln(stderr, "eval: unexpected arguments, --parallel below 1 or a --timeout that is not positive")
		return o, 2
	}
	switch o.approvalMode {
	case "default", "plan", "auto-edit", "auto_edit", "yolo":
	default:
		fmt.Fprintf(stderr, "eval: --approval-mode %q: want default, plan, auto-edit or yolo\n", o.approvalMode)
		return o, 2
	}
	if o.openAIBaseURL != "" && o.provider == "" {
		o.provider = "openai"
	}
	return o, -1
}

// defaultTasksDir is eval/tasks from the module root, or tasks from eval/.
func defaultTasksDir() string {
	if _, err := os.Stat(filepath.Join("eval", "tasks")); err == nil {
		return filepath.Join("eval", "tasks")
	}
	return "tasks"
}

// hasModel reports whether companion will find a model: a script folder,
// an OpenAI-compatible server, a key in the environment, Vertex AI, or a
// settings file (which may hold a key).
func hasModel(o options, getenv func(string) string) bool {
	if o.scripts != "" || o.openAIBaseURL != "" || o.settings != "" {
		return true
	}
	keys := []string{"GEMINI_API_KEY", "GOOGLE_API_KEY", "GOOGLE_GENAI_USE_VERTEXAI", "COMPANION_SCRIPT"}
	if o.provider == "openai" || getenv("COMPANION_PROVIDER") == "openai" {
		keys = []string{"OPENAI_API_KEY", "OPENAI_BASE_URL", "COMPANION_SCRIPT"}
	}
	for _, k := range keys {
		if getenv(k) != "" {
			return true
		}
	}
	return false
}

// withScripts keeps, when scripts is set, the tasks that have a script
// there.
func withScripts(tasks []Task, scripts string) ([]Task, error) {
	if scripts == "" {
		return tasks, nil
	}
	var out []Task
	for _, t := range tasks {
		if _, err := os.Stat(filepath.Join(scripts, t.Name+".json")); err == nil {
			out = append(out, t)
		}
	}
	return out, nil
}

// newRunner builds companion unless --bin names one, and gathers the
// agent's environment.
func newRunner(ctx context.Context, o options, work string, log *slog.Logger) (*runner, error) {
	r := &runner{bin: o.bin, model: o.model, provider: o.provider, approvalMode: o.approvalMode,
		settings: o.settings, timeout: o.timeout, keep: o.keep, workRoot: work, log: log}
	var err error
	if o.scripts != "" {
		if r.scripts, err = filepath.Abs(o.scripts); err != nil {
			return nil, err
		}
	}
	if r.settings != "" {
		if r.settings, err = filepath.Abs(r.settings); err != nil {
			return nil, err
		}
	}
	if r.bin == "" {
		r.bin = filepath.Join(work, "companion")
		log.Info("eval: building companion", "bin", r.bin)
		cmd := exec.CommandContext(ctx, "go", "build", "-ldflags=-s -w", "-o", r.bin, "companion/cmd/companion")
		if out, err := cmd.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("build companion (run from the module, or pass --bin): %w: %s", err, out)
		}
	} else if r.bin, err = filepath.Abs(r.bin); err != nil {
		return nil, err
	}
	r.env = append(os.Environ(), goCaches(ctx)...)
	if o.openAIBaseURL != "" {
		r.env = append(r.env, "OPENAI_BASE_URL="+o.openAIBaseURL)
	}
	return r, nil
}

// goCaches pins Go's caches (and gopls's) to where they are now, since
// the agent runs with a home of its own.
func goCaches(ctx context.Context) []string {
	out, err := exec.CommandContext(ctx, "go", "env", "GOCACHE", "GOMODCACHE", "GOPATH").Output()
	if err != nil {
		return nil
	}
	var env []string
	for i, v := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if v != "" && i < 3 {
			env = append(env, []string{"GOCACHE", "GOMODCACHE", "GOPATH"}[i]+"="+v)
		}
	}
	// gopls keeps what it learnt of the standard library under the user's
	// cache folder; without it every task's first diagnostics start cold.
	if os.Getenv("GOPLSCACHE") == "" {
		if dir, err := os.UserCacheDir(); err == nil {
			env = append(env, "GOPLSCACHE="+filepath.Join(dir, "gopls"))
		}
	}
	return env
}

// runAll runs the tasks, parallel at a time, and returns their results in
// the tasks' order.
func runAll(ctx context.Context, r *runner, tasks []Task, parallel int) []Result {
	results := make([]Result, len(tasks))
	sem := make(chan struct{}, parallel)
	var wg sync.WaitGroup
	for i, t := range tasks {
		sem <- struct{}{} // taken here, so tasks start in order
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			if ctx.Err() != nil {
				results[i] = Result{Name: t.Name, Languages: t.Languages, Skill: t.Skill, Status: "error", Error: "interrupted"}
				return
			}
			r.log.Info("eval: task started", "task", t.Name)
			results[i] = r.run(ctx, t)
			r.log.Info("eval: task done", "task", t.Name, "status", results[i].Status,
				"requests", results[i].Requests, "tokens", results[i].Tokens)
		}()
	}
	wg.Wait()
	return results
}
