package hooks

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"time"
)

// DefaultTimeout is how long a hook may run when its entry sets no timeout.
const DefaultTimeout = 60 * time.Second

// Config is the hooks of the settings, by event.
type Config struct {
	// Hooks lists each event's hooks in the order they run, keyed by the
	// names of Events().
	Hooks map[string][]Hook
}

// Hook is one command run for an event.
type Hook struct {
	// Name labels the hook in errors and logs; empty means the command.
	Name string
	// Matcher is a regular expression the whole tool name (tool events) or
	// trigger (other events) must match; empty or "*" matches everything.
	Matcher string
	// Command is run with `bash -c`.
	Command string
	// Timeout is how long the command may run before it is killed.
	Timeout time.Duration
	// Claude marks a hook written for Claude Code (see dialect.go): it
	// reads Claude Code's event and tool names and tool input shapes.
	Claude bool
	// Call, when set, is run instead of Command: a hook living in the
	// client (an SDK's hook callback). It gets the JSON a command would
	// read on stdin and returns what a command would print; an error is a
	// failed hook.
	Call func(ctx context.Context, input []byte) ([]byte, error)
	// Enabled, when set, is asked before each run: a hook it turns down
	// is skipped, as if it matched nothing (the host holds a project's
	// hooks back while the workspace is not trusted).
	Enabled func() bool
}

// label is how errors and logs name the hook.
func (h Hook) label() string {
	if h.Name != "" {
		return h.Name
	}
	return h.Command
}

// Empty reports whether the configuration has no hook at all.
func (c Config) Empty() bool {
	for _, hs := range c.Hooks {
		if len(hs) > 0 {
			return false
		}
	}
	return true
}

// Gated returns c with every hook's Enabled set to enabled: the hooks of
// one source that run only while enabled says so.
func (c Config) Gated(enabled func() bool) Config {
	out := Config{Hooks: make(map[string][]Hook, len(c.Hooks))}
	for ev, hs := range c.Hooks {
		for _, h := range hs {
			h.Enabled = enabled
			out.Hooks[ev] = append(out.Hooks[ev], h)
		}
	}
	return out
}

// Merge returns c's hooks followed by other's for each event, so user
// settings can run before project settings.
func (c Config) Merge(other Config) Config {
	out := Config{Hooks: map[string][]Hook{}}
	for _, src := range []Config{c, other} {
		for ev, hs := range src.Hooks {
			out.Hooks[ev] = append(out.Hooks[ev], hs...)
		}
	}
	return out
}

// rawEntry is one element of an event's list in either shape: flat
// ({matcher, command, timeout}) or nested ({matcher, hooks: [...]}).
type rawEntry struct {
	Matcher string     `json:"matcher"`
	Name    string     `json:"name"`
	Type    string     `json:"type"`
	Command string     `json:"command"`
	Timeout *float64   `json:"timeout"`
	Hooks   []rawEntry `json:"hooks"`
}

// Parse reads the hooks section of a settings file. raw is either the
// whole settings object (its "hooks" member is read) or the hooks object
// itself: event names mapped to lists of entries, each entry either
// {"matcher", "command", "timeout"} or {"matcher", "hooks": [{"type":
// "command", "command", "timeout"}]} as in Claude Code and Gemini CLI.
// Timeouts are in milliseconds (default 60000), in seconds for hooks
// under Claude Code's event names (PreToolUse, PostToolUse,
// UserPromptSubmit, Stop, PreCompact), which are read as companion's
// and speak Claude Code's dialect (dialect.go). "enabled": false turns every hook off; "disabled" lists hook
// names or commands to skip.
//
// Parse returns every usable hook along with an error (wrapping
// ErrBadConfig or ErrUnknownEvent) that names each entry it skipped, so the
// agent can run the good hooks and show the problems.
func Parse(raw json.RawMessage) (Config, error) { return ParseAs(raw, false) }

// ParseAs is Parse for hooks read from a Claude Code settings file when
// claude is set: every hook then speaks Claude Code's dialect (timeouts
// in seconds, its tool names and input; see dialect.go), as hooks under
// Claude Code's event names always do.
func ParseAs(raw json.RawMessage, claude bool) (Config, error) {
	cfg := Config{Hooks: map[string][]Hook{}}
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return cfg, nil
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(raw, &top); err != nil {
		return cfg, fmt.Errorf("%w: hooks: %w", ErrBadConfig, err)
	}
	if inner, ok := top["hooks"]; ok {
		top = nil
		if err := json.Unmarshal(inner, &top); err != nil {
			return cfg, fmt.Errorf("%w: hooks: %w", ErrBadConfig, err)
		}
		if _, nested := top["hooks"]; nested {
			return cfg, fmt.Errorf("%w: hooks: \"hooks\" is not an event name", ErrUnknownEvent)
		}
	}
	on, disabled, errs := switches(top)
	if !on {
		return cfg, errors.Join(errs...)
	}
	for _, key := range slices.Sorted(maps.Keys(top)) {
		hs, err := parseEvent(key, top[key], claude)
		errs = append(errs, err)
		for _, h := range hs {
			if !slices.Contains(disabled, h.Name) && !slices.Contains(disabled, h.Command) {
				ev, _ := eventName(key)
				cfg.Hooks[ev] = append(cfg.Hooks[ev], h)
			}
		}
	}
	return cfg, errors.Join(errs...)
}

// switches reads and removes the non-event members of the hooks object:
// "enabled" (default true) and "disabled" (names or commands to skip).
func switches(top map[string]json.RawMessage) (bool, []string, []error) {
	on := true
	var disabled []string
	var errs []error
	if raw, ok := top["enabled"]; ok {
		delete(top, "enabled")
		if err := json.Unmarshal(raw, &on); err != nil {
			errs = append(errs, fmt.Errorf("%w: hooks.enabled: %w", ErrBadConfig, err))
			on = true
		}
	}
	if raw, ok := top["disabled"]; ok {
		delete(top, "disabled")
		if err := json.Unmarshal(raw, &disabled); err != nil {
			errs = append(errs, fmt.Errorf("%w: hooks.disabled: %w", ErrBadConfig, err))
		}
	}
	return on, disabled, errs
}

// parseEvent reads one event's list of entries.
func parseEvent(key string, raw json.RawMessage, claude bool) ([]Hook, error) {
	ev, ok := eventName(key)
	if !ok {
		return nil, fmt.Errorf("%w: hooks.%s (known events: %v)", ErrUnknownEvent, key, Events())
	}
	_, claudeName := claudeEvents[key]
	d := dialect{claude: claude || claudeName, tools: ev == BeforeTool || ev == AfterTool}
	var entries []rawEntry
	if err := json.Unmarshal(raw, &entries); err != nil {
		return nil, fmt.Errorf("%w: hooks.%s: %w", ErrBadConfig, key, err)
	}
	var hooks []Hook
	var errs []error
	for i, e := range entries {
		where := fmt.Sprintf("hooks.%s[%d]", key, i)
		if e.Hooks == nil {
			h, err := e.hook(where, e.Matcher, d)
			errs = appendHook(&hooks, h, err, errs)
			continue
		}
		if e.Command != "" {
			errs = append(errs, fmt.Errorf("%w: %s: has both \"command\" and \"hooks\"", ErrBadConfig, where))
			continue
		}
		for j, inner := range e.Hooks {
			h, err := inner.hook(fmt.Sprintf("%s.hooks[%d]", where, j), e.Matcher, d)
			errs = appendHook(&hooks, h, err, errs)
		}
	}
	return hooks, errors.Join(errs...)
}

// appendHook keeps h when err is nil and collects err otherwise.
func appendHook(hooks *[]Hook, h Hook, err error, errs []error) []error {
	if err != nil {
		return append(errs, err)
	}
	*hooks = append(*hooks, h)
	return errs
}

// dialect is how an event's entries are read: written for Claude Code
// (timeouts in seconds), and for a tool event (matchers name tools).
type dialect struct{ claude, tools bool }

// hook checks one command entry; matcher is the entry's own or its
// parent's. A tool event's matcher that can match no tool is an error.
func (e rawEntry) hook(where, matcher string, d dialect) (Hook, error) {
	if e.Type != "" && e.Type != "command" {
		return Hook{}, fmt.Errorf("%w: %s: type %q is not supported (only \"command\")", ErrBadConfig, where, e.Type)
	}
	if e.Command == "" {
		return Hook{}, fmt.Errorf("%w: %s: no command", ErrBadConfig, where)
	}
	re, err := compileMatcher(matcher)
	if err != nil {
		return Hook{}, fmt.Errorf("%w: %s: matcher %q: %w", ErrBadConfig, where, matcher, err)
	}
	if d.tools && !knownToolMatcher(re, matcher) {
		return Hook{}, fmt.Errorf("%w: %s: matcher %q names no known tool (companion's, Claude Code's or Gemini CLI's)", ErrBadConfig, where, matcher)
	}
	h := Hook{Name: e.Name, Matcher: matcher, Command: e.Command, Timeout: DefaultTimeout, Claude: d.claude}
	unit := time.Millisecond
	if d.claude {
		unit = time.Second
	}
	if e.Timeout != nil {
		switch n := *e.Timeout; {
		case n < 0:
			return Hook{}, fmt.Errorf("%w: %s: negative timeout", ErrBadConfig, where)
		case n > 0:
			h.Timeout = time.Duration(n * float64(unit))
		}
	}
	return h, nil
}

// compileMatcher turns a matcher into a regular expression anchored at both
// ends; nil means match everything.
func compileMatcher(m string) (*regexp.Regexp, error) {
	if m == "" || m == "*" {
		return nil, nil
	}
	return regexp.Compile(`^(?:` + m + `)$`)
}
