package headless

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"companion/agent"
	"companion/agent/model"
)

// Run runs companion headless as o says and returns the exit code.
func Run(ctx context.Context, o Options) int {
	if err := o.Check(); err != nil {
		fmt.Fprintf(o.Stderr, "%s: %v\n", o.name(), err)
		return o.usageCode()
	}
	rep := newReporter(&o, time.Now())
	if o.InputFormat == formatStream {
		return runStream(ctx, &o, rep)
	}
	text, err := readPrompt(&o)
	if err != nil {
		fmt.Fprintf(o.Stderr, "%s: %v\n", o.name(), err)
		return o.usageCode()
	}
	rs, err := openSession(ctx, &o, extras{}, rep, nil)
	if err != nil {
		return startFailed(&o, rep, err)
	}
	defer rs.close(&o)
	if o.OutputFormat == formatStream {
		rep.system("init", rs.initFields(ctx, &o))
	}
	rep.userPrompt(text)
	out := rs.prompt(ctx, rep, rs.agent.PromptParts(ctx, text))
	return o.exitCode(ctx, out)
}

// newReporter makes the reporter for o's output format; started is when
// the run began, the start of a result written before any prompt ran.
func newReporter(o *Options, started time.Time) *reporter {
	format := o.OutputFormat
	if o.GeminiCLI && format == formatStream && o.InputFormat == formatText && !o.IncludePartial {
		format = formatGeminiStream
	}
	return &reporter{format: format, partial: o.IncludePartial, lines: &lineWriter{w: o.Stdout},
		stdout: o.Stdout, stderr: o.Stderr, model: func() string { return o.Config.Model }, runStart: started}
}

// exitCode is a finished prompt's exit code.
func (o *Options) exitCode(ctx context.Context, out outcome) int {
	switch {
	case ctx.Err() != nil:
		return ExitInterrupted
	case o.GeminiCLI && out.stop == agent.MaxTurnRequests && out.err == nil:
		return ExitGeminiTurnLimit
	case out.failed():
		return ExitError
	}
	return ExitOK
}

// usageCode is the exit code of bad input: ExitUsage, or Gemini CLI's
// ExitGeminiInput for a run started as Gemini CLI's.
func (o *Options) usageCode() int {
	if o.GeminiCLI {
		return ExitGeminiInput
	}
	return ExitUsage
}

// startFailed reports a session that could not start, in the output's
// format, and returns the exit code.
func startFailed(o *Options, rep *reporter, err error) int {
	if o.OutputFormat == formatText {
		fmt.Fprintf(o.Stderr, "%s: %v\n", o.name(), err)
	} else {
		rep.finish(outcome{err: err, started: rep.runStart})
	}
	if errors.Is(err, ErrUsage) {
		return o.usageCode()
	}
	return ExitError
}

// readPrompt is -p's text with piped stdin appended, or stdin alone.
func readPrompt(o *Options) (string, error) {
	text := o.Prompt
	if o.Stdin != nil && (o.StdinPiped || text == "") {
		b, err := io.ReadAll(o.Stdin)
		if err != nil {
			return "", fmt.Errorf("reading the prompt from stdin: %w", err)
		}
		if in := strings.TrimRight(string(b), "\n"); strings.TrimSpace(in) != "" {
			if text != "" {
				text += "\n\n"
			}
			text += in
		}
	}
	if strings.TrimSpace(text) == "" {
		return "", errors.New("no prompt: give one with -p or on stdin")
	}
	return text, nil
}

// prompt runs one prompt and writes its result.
func (rs *runSession) prompt(ctx context.Context, rep *reporter, parts []model.Part) outcome {
	out := outcome{started: time.Now(), before: rs.agent.Totals(), beforeModels: rs.agent.ModelTotals()}
	out.stop, out.err = rs.agent.Prompt(ctx, parts)
	if ctx.Err() != nil && out.err == nil {
		out.stop = agent.Cancelled
	}
	out.after, out.afterModels = rs.agent.Totals(), rs.agent.ModelTotals()
	rep.finish(out)
	return out
}

// initFields are the system/init line's fields.
func (rs *runSession) initFields(ctx context.Context, o *Options) map[string]any {
	a := rs.agent
	cmds := []string{}
	for _, c := range a.Commands() {
		cmds = append(cmds, c.Name)
	}
	return map[string]any{"cwd": o.Cwd, "tools": a.ToolNames(ctx), "mcp_servers": statuses(rs.mcp),
		"model": a.ModelName(), "models": a.Models(), "permission_mode": sdkMode(a.Mode()), "slash_commands": cmds,
		"agents": rs.agents, "companion_version": o.Version, "output_style": "default"}
}
