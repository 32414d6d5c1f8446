package builtin

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"companion/tools"
)

var (
	//go:embed descriptions/list_background_processes.md
	listBackgroundDescription string
	//go:embed descriptions/read_background_output.md
	readBackgroundDescription string
	//go:embed descriptions/kill_background_process.md
	killBackgroundDescription string
)

// maxBackgroundLines caps read_background_output's lines parameter.
const maxBackgroundLines = 1000

// noBackground answers the background tools in a session without a
// registry.
const noBackground = "This session has no background processes."

type listBackgroundParams struct{}

// newListBackground returns list_background_processes, which lists the
// session's background commands.
func newListBackground() tools.Tool {
	return tools.Define(tools.Def[listBackgroundParams]{
		Name: "list_background_processes", Kind: tools.KindRead,
		Description: listBackgroundDescription,
		Schema:      json.RawMessage(`{"type":"object","properties":{}}`),
		Prepare: func(env *tools.Env, _ listBackgroundParams) (tools.Invocation, error) {
			return &backgroundCall{env: env, title: "List background processes", run: listBackground}, nil
		},
	})
}

// backgroundCall is one call of a background tool; run does the work.
type backgroundCall struct {
	env   *tools.Env
	title string
	run   func(ctx context.Context, b *tools.Background) (*tools.Result, error)
}

func (c *backgroundCall) Title() string                                             { return c.title }
func (c *backgroundCall) Locations() []tools.Location                               { return nil }
func (c *backgroundCall) Confirmation(context.Context) (*tools.Confirmation, error) { return nil, nil }

func (c *backgroundCall) Execute(ctx context.Context, _ tools.Output) (*tools.Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if c.env.Background == nil {
		return &tools.Result{Text: noBackground}, nil
	}
	return c.run(ctx, c.env.Background)
}

// listBackground describes every job, one line each.
func listBackground(ctx context.Context, b *tools.Background) (*tools.Result, error) {
	jobs := b.List()
	if len(jobs) == 0 {
		return &tools.Result{Text: "No background processes."}, nil
	}
	var sb strings.Builder
	for _, e := range jobs {
		j, ok := e.Job.(*bgJob)
		if !ok {
			continue
		}
		fmt.Fprintf(&sb, "%s  %s  %s  started %s ago  %s\n", e.ID, describeState(ctx, j), j.where(),
			time.Since(j.started).Round(time.Second), shortCommand(j.command))
	}
	return &tools.Result{Text: sb.String()}, nil
}

// where names a job's process group or terminal.
func (j *bgJob) where() string {
	if j.term != nil {
		return "terminal " + j.term.ID()
	}
	return fmt.Sprintf("pid %d", j.pgid)
}

// describeState says "running", "exited (code N)" and so on.
func describeState(ctx context.Context, j *bgJob) string {
	running, exit, err := j.state(ctx)
	switch {
	case err != nil:
		return "unknown (" + err.Error() + ")"
	case running:
		return "running"
	case exit == nil && j.term != nil:
		return "killed"
	case exit == nil:
		return "exited"
	case exit.Signal != "":
		return "killed by " + exit.Signal
	case exit.Code != nil:
		return fmt.Sprintf("exited (code %d)", *exit.Code)
	}
	return "exited"
}

// readBackgroundTool shows the end of a background command's output.
type readBackgroundTool struct {
	opts ShellOptions
}

type readBackgroundParams struct {
	ID    string `json:"id" required:"true" desc:"The background process id, e.g. \"bg1\"."`
	Lines int    `json:"lines" default:"100" minimum:"1" desc:"How many of the last output lines to show (at most 1000)."`
}

func newReadBackground(o ShellOptions) tools.Tool {
	t := &readBackgroundTool{opts: o}
	return tools.Define(tools.Def[readBackgroundParams]{
		Name: "read_background_output", Kind: tools.KindRead,
		Description: readBackgroundDescription,
		Prepare:     t.prepare,
	})
}

func (t *readBackgroundTool) prepare(env *tools.Env, p readBackgroundParams) (tools.Invocation, error) {
	lines := min(p.Lines, maxBackgroundLines)
	maxBytes := t.opts.TailBytes
	run := func(ctx context.Context, b *tools.Background) (*tools.Result, error) {
		j, ok := jobOf(b, p.ID)
		if !ok {
			return tools.ErrorResult(fmt.Sprintf("No background process %q; list_background_processes shows the ids.", p.ID)), nil
		}
		text, err := j.output(ctx, maxBytes)
		if err != nil {
			return tools.ErrorResult(fmt.Sprintf("Could not read the output of %s: %v", p.ID, err)), nil
		}
		shown, cut := lastLines(text, lines, len(text) >= maxBytes)
		head := fmt.Sprintf("%s (%s): ", p.ID, describeState(ctx, j))
		switch {
		case strings.TrimSpace(shown) == "":
			head += "no output yet.\n"
		case cut:
			head += fmt.Sprintf("the last %d lines of output:\n", strings.Count(shown, "\n")+1)
		default:
			head += "all output so far:\n"
		}
		return &tools.Result{Text: head + cleanText([]byte(shown))}, nil
	}
	return &backgroundCall{env: env, title: "Read output of " + p.ID, run: run}, nil
}

type killBackgroundParams struct {
	ID string `json:"id" required:"true" desc:"The background process id, e.g. \"bg1\"."`
}

// newKillBackground returns kill_background_process, which stops a
// background command.
func newKillBackground() tools.Tool {
	return tools.Define(tools.Def[killBackgroundParams]{
		Name: "kill_background_process", Kind: tools.KindExecute,
		Description: killBackgroundDescription,
		Prepare:     prepareKillBackground,
	})
}

func prepareKillBackground(env *tools.Env, p killBackgroundParams) (tools.Invocation, error) {
	run := func(ctx context.Context, b *tools.Background) (*tools.Result, error) {
		j, ok := jobOf(b, p.ID)
		if !ok {
			return tools.ErrorResult(fmt.Sprintf("No background process %q; list_background_processes shows the ids.", p.ID)), nil
		}
		before := describeState(ctx, j)
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
		defer cancel()
		if err := j.Kill(cctx); err != nil {
			return tools.ErrorResult(fmt.Sprintf("Could not stop %s: %v", p.ID, err)), nil
		}
		if before != "running" {
			return &tools.Result{Text: fmt.Sprintf("%s was not running (%s).", p.ID, before)}, nil
		}
		return &tools.Result{Text: fmt.Sprintf("Stopped %s (%s).", p.ID, describeState(cctx, j))}, nil
	}
	return &backgroundCall{env: env, title: "Stop " + p.ID, run: run}, nil
}
