package policy

import (
	"path/filepath"

	"fmt"
	"sync"

	"companion/tools"
)

// Decision is what happens to a call.
type Decision int

// Decisions.
const (
	Allow Decision = iota
	Ask
	Deny
)

func (d Decision) String() string {
	return [...]string{"allow", "ask", "deny"}[d]
}

// Verdict is a decision with the reason the model or user is told.
type Verdict struct {
	Decision Decision
	Reason   string
}

// Approval modes, as the agent names them.
const (
	ModeDefault  = "default"
	ModeAutoEdit = "auto_edit"
	ModeYolo     = "yolo"
	ModePlan     = "plan"
)

// Rules are allow, ask and deny rules; deny wins over ask over allow.
// Only, when set, are the only calls that may run at all: a call none of
// them covers is denied, in every mode (Gemini CLI's tools.core).
type Rules struct {
	Allow, Ask, Deny []Rule
	Only             []Rule
}

// Options configure a Policy.
type Options struct {
	Mode string
	// Trusted is false for a folder the user has not trusted: nothing is
	// then approved without asking, whatever the mode or rules say.
	Trusted bool
	Roots   *tools.Roots
	// Rules come from user and project settings.
	Rules Rules
}

// Policy decides about one session's tool calls. It is safe for concurrent
// use.
type Policy struct {
	roots *tools.Roots
	rules Rules
	// homes is the user's home folder as named and with links resolved,
	// read once (homeSecret, expandHome).
	homes []string

	// mu guards mode, trusted and session.
	mu      sync.Mutex
	mode    string
	trusted bool
	// session holds the "always" answers given in this session.
	session Rules
}

// New returns a policy.
func New(opts Options) *Policy {
	if opts.Mode == "" {
		opts.Mode = ModeDefault
	}
	if !opts.Trusted && Unsafe(opts.Mode) {
		opts.Mode = ModeDefault
	}
	return &Policy{roots: opts.Roots, trusted: opts.Trusted, rules: opts.Rules, mode: opts.Mode, homes: userHomes()}
}

// Mode is the current approval mode.
func (p *Policy) Mode() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.mode
}

// SetMode changes the approval mode. An untrusted policy keeps its mode
// instead of switching to yolo or auto_edit (see Unsafe).
func (p *Policy) SetMode(mode string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.trusted && Unsafe(mode) {
		return
	}
	p.mode = mode
}

// Unsafe reports whether a mode approves calls without asking, which an
// untrusted folder refuses: yolo and auto_edit.
func Unsafe(mode string) bool {
	return mode == ModeYolo || mode == ModeAutoEdit
}

// Trusted reports whether the folder is trusted.
func (p *Policy) Trusted() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.trusted
}

// SetTrusted changes whether the folder is trusted. Distrust drops yolo and
// auto_edit to default; dropped reports whether it did.
func (p *Policy) SetTrusted(trusted bool) (dropped bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.trusted = trusted
	if !trusted && Unsafe(p.mode) {
		p.mode = ModeDefault
		return true
	}
	return false
}

// Remember adds a rule for the rest of the session (an "always" answer).
func (p *Policy) Remember(allow bool, rs ...Rule) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if allow {
		p.session.Allow = append(p.session.Allow, rs...)
	} else {
		p.session.Deny = append(p.session.Deny, rs...)
	}
}

// Decide says what happens to a call. Calls without a confirmation
// (read-only tools) are allowed unless a deny rule names them.
func (p *Policy) Decide(c Call) Verdict {
	p.mu.Lock()
	mode, session, trusted := p.mode, p.session, p.trusted
	p.mu.Unlock()
	c.Root = p.roots.Primary()
	if c.Confirm != nil && c.Confirm.Type == tools.ConfirmExec {
		c.dir = c.workDir() // resolved once: rules, redirects, cd targets and git folders all start there
	}
	all := Rules{
		Allow: append(append([]Rule(nil), p.rules.Allow...), session.Allow...),
		Ask:   p.rules.Ask,
		Deny:  append(append([]Rule(nil), p.rules.Deny...), session.Deny...),
	}
	if r, ok := firstMatch(all.Deny, c, true); ok {
		return Verdict{Deny, fmt.Sprintf("A deny rule (%s) forbids this call.", r)}
	}
	if len(p.rules.Only) > 0 {
		if _, ok := firstMatch(p.rules.Only, c, false); !ok {
			return Verdict{Deny, "The settings allow only some tools and commands (tools.core), and this call is not among them."}
		}
	}
	if c.Confirm == nil {
		return Verdict{Decision: Allow}
	}
	if mode == ModePlan && c.Confirm.Type != tools.ConfirmInfo {
		return Verdict{Deny, "Plan mode is read-only: no edits, commands or other changes. Describe the change instead, or ask the user to switch modes."}
	}
	if reason := p.alwaysAsk(c); reason != "" {
		return Verdict{Ask, reason}
	}
	if mode != ModeYolo {
		if reason := p.protectedAsk(c); reason != "" {
			return Verdict{Ask, reason}
		}
		if reason := p.folderAsk(c); reason != "" {
			return Verdict{Ask, reason}
		}
	}
	if !trusted {
		return Verdict{Ask, "this folder is not trusted"}
	}
	if _, ok := firstMatch(all.Ask, c, false); ok {
		return Verdict{Decision: Ask}
	}
	if modeAllows(mode, c.Confirm.Type) {
		return Verdict{Decision: Allow}
	}
	if _, ok := firstMatch(all.Allow, c, false); ok {
		return Verdict{Decision: Allow}
	}
	return Verdict{Ask, beyondReason(c.Confirm)}
}

// beyondReason says why no rule could cover a shell line whose options
// reach beyond its program (git -c, sed -i); "" for other calls.
func beyondReason(conf *tools.Confirmation) string {
	if conf.Type != tools.ConfirmExec {
		return ""
	}
	for _, cmd := range conf.Commands {
		if cmd.Beyond != "" && len(cmd.Words) > 0 {
			return "asked every time: " + filepath.Base(cmd.Words[0]) + " " + cmd.Beyond +
				" can run other programs or write files, which no rule covers"
		}
	}
	return ""
}

// modeAllows reports whether the mode approves a confirmation type.
func modeAllows(mode string, t tools.ConfirmType) bool {
	switch mode {
	case ModeYolo:
		return true
	case ModeAutoEdit:
		return t == tools.ConfirmEdit
	}
	return false
}

// alwaysAsk names why a call must be asked whatever the mode and rules
// say: writes outside the roots, and shell lines that cannot be read with
// certainty. Files that grant powers are asked about too, in every mode
// but yolo (protectedAsk).
func (p *Policy) alwaysAsk(c Call) string {
	conf := c.Confirm
	switch conf.Type {
	case tools.ConfirmEdit:
		if !p.roots.Contains(conf.Path) {
			return "the file is outside the workspace"
		}
	case tools.ConfirmExec:
		if !conf.Parsed {
			return "the command could not be parsed"
		}
		for _, cmd := range conf.Commands {
			if cmd.Dynamic {
				return "the line runs code known only when it runs (a computed program name, eval, or a value bash evaluates as code), which no rule covers"
			}
		}
		dir := c.workDir()
		for _, target := range conf.Redirects {
			if reason := p.redirectOutside(dir, target); reason != "" {
				return reason
			}
		}
	}
	return ""
}

// firstMatch returns the first rule covering the call. For shell calls,
// an allow or ask rule must cover every command of the line (any for
// deny: one forbidden command forbids the line).
func firstMatch(rules []Rule, c Call, deny bool) (Rule, bool) {
	for _, r := range rules {
		if !r.matchesTool(c) {
			continue
		}
		if r.Pattern == "" || covers(r, c, deny) {
			return r, true
		}
	}
	if !deny && c.Confirm != nil && c.Confirm.Type == tools.ConfirmExec {
		return allCommandsCovered(rules, c)
	}
	return Rule{}, false
}

// covers matches a rule's pattern against the call.
func covers(r Rule, c Call, deny bool) bool {
	conf := c.Confirm
	if conf == nil || r.Tool == readGroup {
		return r.matchesPaths(c.Root, c.Paths) // reading tools: the paths they read
	}
	switch conf.Type {
	case tools.ConfirmEdit:
		return r.matchesPath(c.Root, conf.Path)
	case tools.ConfirmMCP:
		return r.matchesMCP(conf)
	case tools.ConfirmInfo:
		return r.matchesURLs(conf)
	case tools.ConfirmExec:
		if !deny {
			return false // allow and ask: checked command by command
		}
		for _, cmd := range conf.Commands {
			if r.matchesCommand(c, cmd, true) || (cmd.Dynamic && len(cmd.Words) > 0 && r.matchesCommand(c, tools.ShellCommand{Words: cmd.Words}, true)) {
				return true
			}
		}
	}
	return false
}

// allCommandsCovered reports whether every command of a shell line is
// covered by some rule with a pattern.
func allCommandsCovered(rules []Rule, c Call) (Rule, bool) {
	conf := c.Confirm
	if len(conf.Commands) == 0 {
		return Rule{}, false
	}
	var last Rule
	for _, cmd := range conf.Commands {
		found := false
		for _, r := range rules {
			if r.Pattern != "" && r.matchesTool(c) && r.matchesCommand(c, cmd, false) {
				found, last = true, r
				break
			}
		}
		if !found {
			return Rule{}, false
		}
	}
	return last, true
}

// ReadDenied reports whether a deny rule with a path keeps tool from
// reading the file at path: a rule of the read group (Claude Code's
// "Read(./.env)") or one naming tool ("Grep(secrets/)"). Decide refuses a
// call that names such a file; the searching tools ask this for each
// file of the folders they walk, so a search over the root skips it too.
// Rules without a path are Decide's alone: they refuse the whole call.
func (p *Policy) ReadDenied(tool, path string) bool {
	p.mu.Lock()
	session := p.session.Deny
	p.mu.Unlock()
	root := ""
	if p.roots != nil {
		root = p.roots.Primary()
	}
	for _, list := range [][]Rule{p.rules.Deny, session} {
		for _, r := range list {
			if r.Pattern != "" && (r.Tool == readGroup || r.Tool == tool) && r.matchesPath(root, path) {
				return true
			}
		}
	}
	return false
}
