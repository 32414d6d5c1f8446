package tools

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
	"time"
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

// listBackgroundTool lists the session's background commands.
type listBackgroundTool struct{ schema json.RawMessage }

type listBackgroundParams struct{}

func newListBackground() *listBackgroundTool {
	return &listBackgroundTool{schema: json.RawMessage(`{"type":"object","properties":{}}`)}
}

func (t *listBackgroundTool) Name() string            { return "list_background_processes" }
func (t *listBackgroundTool) Description() string     { return listBackgroundDescription }
func (t *listBackgroundTool) Schema() json.RawMessage { return t.schema }
func (t *listBackgroundTool) Kind() Kind              { return KindRead }

func (t *listBackgroundTool) Prepare(env *Env, args json.RawMessage) (Invocation, error) {
	if _, err := Bind[listBackgroundParams](args); err != nil {
		return nil, err
	}
	return &backgroundCall{env: env, title: "List background processes", run: listBackground}, nil
}

// backgroundCall is one call of a background tool; run does the work.
type backgroundCall struct {
	env   *Env
	title string
	run   func(ctx context.Context, b *Background) (*Result, error)
}

func (c *backgroundCall) Title() string                                       { return c.title }
func (c *backgroundCall) Locations() []Location                               { return nil }
func (c *backgroundCall) Confirmation(context.Context) (*Confirmation, error) { return nil, nil }

func (c *backgroundCall) Execute(ctx context.Context, _ Output) (*Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if c.env.Background == nil {
		return &Result{Text: noBackground}, nil
	}
	return c.run(ctx, c.env.Background)
}

// listBackground describes every job, one line each.
func listBackground(ctx context.Context, b *Background) (*Result, error) {
	jobs := b.list()
	if len(jobs) == 0 {
		return &Result{Text: "No background processes."}, nil
	}
	var sb strings.Builder
	for _, j := range jobs {
		fmt.Fprintf(&sb, "%s  %s  %s  started %s ago  %s\n", j.id, describeState(ctx, j), j.where(),
			time.Since(j.started).Round(time.Second), shortCommand(j.command))
	}
	return &Result{Text: sb.String()}, nil
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
	opts   ShellOptions
	schema json.RawMessage
}

type readBackgroundParams struct {
	ID    string `json:"id" required:"true" desc:"The background process id, e.g. \"bg1\"."`
	Lines int    `json:"lines" default:"100" minimum:"1" desc:"How many of the last output lines to show (at most 1000)."`
}

func newReadBackground(o ShellOptions) *readBackgroundTool {
	return &readBackgroundTool{opts: o, schema: SchemaFor[readBackgroundParams]()}
}

func (t *readBackgroundTool) Name() string            { return "read_background_output" }
func (t *readBackgroundTool) Description() string     { return readBackgroundDescription }
func (t *readBackgroundTool) Schema() json.RawMessage { return t.schema }
func (t *readBackgroundTool) Kind() Kind              { return KindRead }

func (t *readBackgroundTool) Prepare(env *Env, args json.RawMessage) (Invocation, error) {
	p, err := Bind[readBackgroundParams](args)
	if err != nil {
		return nil, err
	}
	lines := min(p.Lines, maxBackgroundLines)
	maxBytes := t.opts.TailBytes
	run := func(ctx context.Context, b *Background) (*Result, error) {
		j, ok := b.get(p.ID)
		if !ok {
			return ErrorResult(fmt.Sprintf("No background process %q; list_background_processes shows the ids.", p.ID)), nil
		}
		text, err := j.output(ctx, maxBytes)
		if err != nil {
			return ErrorResult(fmt.Sprintf("Could not read the output of %s: %v", p.ID, err)), nil
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
		return &Result{Text: head + cleanText([]byte(shown))}, nil
	}
	return &backgroundCall{env: env, title: "Read output of " + p.ID, run: run}, nil
}

// killBackgroundTool stops a background command.
type killBackgroundTool struct{ schema json.RawMessage }

type killBackgroundParams struct {
	ID string `json:"id" required:"true" desc:"The background process id, e.g. \"bg1\"."`
}

func newKillBackground() *killBackgroundTool {
	return &killBackgroundTool{schema: SchemaFor[killBackgroundParams]()}
}

func (t *killBackgroundTool) Name() string            { return "kill_background_process" }
func (t *killBackgroundTool) Description() string     { return killBackgroundDescription }
func (t *killBackgroundTool) Schema() json.RawMessage { return t.schema }
func (t *killBackgroundTool) Kind() Kind              { return KindExecute }

func (t *killBackgroundTool) Prepare(env *Env, args json.RawMessage) (Invocation, error) {
	p, err := Bind[killBackgroundParams](args)
	if err != nil {
		return nil, err
	}
	run := func(ctx context.Context, b *Background) (*Result, error) {
		j, ok := b.get(p.ID)
		if !ok {
			return ErrorResult(fmt.Sprintf("No background process %q; list_background_processes shows the ids.", p.ID)), nil
		}
		before := describeState(ctx, j)
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
		defer cancel()
		if err := j.kill(cctx); err != nil {
			return ErrorResult(fmt.Sprintf("Could not stop %s: %v", p.ID, err)), nil
		}
		if before != "running" {
			return &Result{Text: fmt.Sprintf("%s was not running (%s).", p.ID, before)}, nil
		}
		return &Result{Text: fmt.Sprintf("Stopped %s (%s).", p.ID, describeState(cctx, j))}, nil
	}
	return &backgroundCall{env: env, title: "Stop " + p.ID, run: run}, nil
}
