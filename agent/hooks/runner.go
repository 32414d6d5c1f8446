package hooks

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"slices"
	"time"

	"companion/tools/shell"
)

// Input describes the event a hook is run for. It becomes the JSON object
// on the hook's stdin: session_id, transcript_path, cwd, hook_event_name,
// timestamp, tool_name (when set) and every member of Data.
type Input struct {
	// SessionID identifies the session.
	SessionID string
	// TranscriptPath is where the session's history is stored.
	TranscriptPath string
	// Cwd is the session's working directory; hooks run there.
	Cwd string
	// ToolName names the tool of a BeforeTool or AfterTool event. Matchers
	// test it and its Claude Code and Gemini CLI names; it is sent as
	// tool_name (Claude Code's name to hooks in its dialect).
	ToolName string
	// MCPServer and MCPTool name the server and the server's own name of
	// an MCP tool, from which its Claude Code (mcp__server__tool) and
	// Gemini CLI (server__tool) names are made; empty for other tools.
	MCPServer, MCPTool string
	// Trigger is what matchers test for events without a tool: the source
	// of SessionStart (startup, resume, clear), the reason of SessionEnd,
	// the trigger of PreCompress (manual, auto), the type of a
	// Notification. It is not sent; put it in Data under the name hooks
	// expect. When both ToolName and Trigger are empty, matchers are not
	// applied.
	Trigger string
	// Data is the event's own data: tool_input, tool_response, prompt,
	// llm_request (model name, message count) and so on. The fixed members
	// above take precedence over Data's.
	Data map[string]any
}

// target is what matchers test.
func (in Input) target() string { return first(in.ToolName, in.Trigger) }

// Options tune a Runner. The zero value is usable.
type Options struct {
	// Shell is the program that runs the commands (shell.Argv says how);
	// default bash where it is found, on every platform, since hook
	// scripts are written for it (Claude Code and Gemini CLI run them so);
	// else what shell.Program picks: cmd.exe on Windows, sh elsewhere.
	Shell string
	// Env is added to the environment hooks inherit (KEY=value). Hooks
	// also get COMPANION_PROJECT_DIR (and GEMINI_PROJECT_DIR,
	// CLAUDE_PROJECT_DIR for copied scripts) set to Input.Cwd.
	Env []string
	// Log receives one record per hook run; nil discards them.
	Log *slog.Logger
	// Now stamps the input's timestamp; default time.Now.
	Now func() time.Time
	// Redact, when set, rewrites each hook's JSON input before it is
	// written to the hook (companion replaces secret values).
	Redact func([]byte) []byte
	// Wrap, when set, rewrites each hook command's command line (program
	// first) before it starts: the command sandbox. An error fails the
	// hook without running it.
	Wrap func(argv []string) ([]string, error)
}

// hookShell is the default Options.Shell for goos: bash when lookPath
// finds it, else shell.Program's choice.
func hookShell(goos string, lookPath func(string) (string, error), getenv func(string) string) string {
	if p, err := lookPath("bash"); err == nil {
		return p
	}
	return shell.Program(goos, "", lookPath, getenv)
}

// Runner runs the configured hooks of an event. A nil *Runner runs
// nothing. It is safe for concurrent use.
type Runner struct {
	hooks map[string][]compiled
	opts  Options
}

// compiled is a hook with its matcher ready.
type compiled struct {
	Hook
	re *regexp.Regexp
}

// NewRunner prepares cfg's hooks. Hooks whose event is unknown or whose
// matcher does not compile (possible only in a Config not made by Parse)
// are left out and logged.
func NewRunner(cfg Config, opts Options) *Runner {
	if opts.Shell == "" {
		opts.Shell = hookShell(runtime.GOOS, exec.LookPath, os.Getenv)
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	r := &Runner{hooks: map[string][]compiled{}, opts: opts}
	for ev, hs := range cfg.Hooks {
		if !slices.Contains(Events(), ev) {
			opts.Log.Warn("hook event unknown; hooks skipped", "event", ev)
			continue
		}
		for _, h := range hs {
			re, err := compileMatcher(h.Matcher)
			if err != nil {
				opts.Log.Warn("hook matcher invalid; hook skipped", "event", ev, "hook", h.label(), "err", err)
				continue
			}
			if h.Timeout <= 0 {
				h.Timeout = DefaultTimeout
			}
			r.hooks[ev] = append(r.hooks[ev], compiled{Hook: h, re: re})
		}
	}
	return r
}

// WithRedact returns a Runner running the same hooks whose input goes
// through redact first (see Options.Redact); nil stays nil.
func (r *Runner) WithRedact(redact func([]byte) []byte) *Runner {
	if r == nil {
		return nil
	}
	c := *r
	c.opts.Redact = redact
	return &c
}

// Has reports whether any hook is configured for event, so callers can
// skip building an Input on the hot path.
func (r *Runner) Has(event string) bool {
	return r != nil && len(r.hooks[event]) > 0
}

// Run runs, one after another in configuration order, every hook of event
// whose matcher accepts the input, and folds their answers into one
// Outcome. Hooks that fail are reported in Outcome.Errors and otherwise
// ignored. Run returns an error only for an unknown event, Data that cannot
// be encoded as JSON, or ctx ending (the running hook is killed).
func (r *Runner) Run(ctx context.Context, event string, in Input) (Outcome, error) {
	var out Outcome
	if !slices.Contains(Events(), event) {
		return out, fmt.Errorf("%w: %q", ErrUnknownEvent, event)
	}
	if r == nil {
		return out, nil
	}
	payload := r.payload(event, in)
	names := []string{in.Trigger}
	if in.ToolName != "" {
		names = toolNames(in)
	}
	for _, h := range r.hooks[event] {
		if h.re != nil && in.target() != "" && !matchesAny(h.re, names) {
			continue
		}
		if h.Enabled != nil && !h.Enabled() {
			r.opts.Log.Debug("hook held back", "event", event, "hook", h.label())
			continue
		}
		sent := payload
		if h.Claude {
			sent = claudePayload(payload, event, in)
		}
		stdin, err := json.Marshal(sent)
		if err != nil {
			return out, fmt.Errorf("hooks: %s input: %w", event, err)
		}
		if r.opts.Redact != nil {
			stdin = r.opts.Redact(stdin)
		}
		a, err := r.runHook(ctx, event, h.Hook, in.Cwd, stdin)
		if ctx.Err() != nil {
			return out, fmt.Errorf("hooks: %s: %w", event, context.Cause(ctx))
		}
		if err != nil {
			out.Errors = append(out.Errors, err)
			continue
		}
		if h.Claude && a.toolInput != nil {
			a.toolInput = fromClaudeInput(in.ToolName, a.toolInput)
		}
		out.add(a)
		if event == BeforeTool && a.toolInput != nil {
			out.ToolInput = a.toolInput
			payload["tool_input"] = a.toolInput
		}
	}
	return out, nil
}

// payload builds the JSON object sent to the event's hooks.
func (r *Runner) payload(event string, in Input) map[string]any {
	p := make(map[string]any, len(in.Data)+6)
	maps.Copy(p, in.Data)
	p["session_id"] = in.SessionID
	p["transcript_path"] = in.TranscriptPath
	p["cwd"] = in.Cwd
	p["hook_event_name"] = event
	p["timestamp"] = r.opts.Now().UTC().Format(time.RFC3339Nano)
	if in.ToolName != "" {
		p["tool_name"] = in.ToolName
	}
	return p
}
