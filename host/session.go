package host

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"companion/agent"
	"companion/agent/checkpoint"
	"companion/agent/hooks"
	"companion/agent/memory"
	"companion/agent/slash"
	"companion/agent/store"
	"companion/config"
	"companion/tools"
	"companion/tools/policy"
	"companion/tools/sandbox"
)

// NewSessionID returns a fresh, random session id.
func NewSessionID() string {
	var b [16]byte
	rand.Read(b[:])
	return "sess_" + hex.EncodeToString(b[:])
}

// OpenStore opens the session store under the settings' state directory.
func OpenStore(cfg config.Config, log *slog.Logger) *store.Store {
	return store.Open(cfg.StateDir, log)
}

// SessionConfig lays the project's settings over the user's and reports
// whether the folder is trusted. In a trusted folder, parts that grant
// powers wait until the user accepts the file's content (see
// config.ApplyProject); in one that is not, only the rules that restrict
// apply (see UntrustedConfig).
func SessionConfig(cfg config.Config, root string) (config.Config, bool, error) {
	if !cfg.FolderTrust.Trusts(root) {
		cfg, err := UntrustedConfig(cfg, root)
		return cfg, false, err
	}
	f, err := config.ReadProjectFile(root)
	if err != nil {
		return cfg, true, err
	}
	return cfg.ApplyProject(f), true, nil
}

// UntrustedConfig adds to cfg the deny and ask rules (and Gemini CLI's
// tools.core) of the project's settings in root, a folder that is not
// trusted: restricting rules hold in every folder; nothing else of the
// project is read. A rule that cannot be read is an error, as anywhere.
func UntrustedConfig(cfg config.Config, root string) (config.Config, error) {
	f, err := config.ReadProjectFile(root)
	if err != nil {
		return cfg, err
	}
	return cfg.WithProjectLimits(f), nil
}

// Policy builds the permission policy from the settings' rules, with
// extraAllow (rules given on the command line) added to the allow list.
// A rule that cannot be read or names no known tool (of companion's, of
// reg's when set, or of Claude Code's) is an error naming the file and
// line it was read from. notes name, for the user, the allow rules left
// out (see Rules) and the rules that match nothing here (Claude Code
// tools companion lacks).
func Policy(cfg config.Config, roots *tools.Roots, reg *tools.Registry, trusted bool,
	extraAllow ...string) (pol *policy.Policy, notes []string, err error) {
	var known func(string) bool
	if reg != nil {
		known = func(name string) bool { _, ok := reg.Get(name); return ok }
	}
	rules, notes, err := Rules(cfg, known, extraAllow...)
	if err != nil {
		return nil, nil, err
	}
	for _, list := range [][]policy.Rule{rules.Allow, rules.Ask, rules.Deny, rules.Only} { // rules that match nothing
		for _, r := range list {
			if r.Inert() {
				notes = append(notes, fmt.Sprintf("The permission rule %s has no effect: companion has no %s tool.", r, r.Tool))
			}
		}
	}
	return policy.New(policy.Options{Trusted: trusted, Roots: roots, Rules: rules, Mode: cfg.ApprovalMode}), notes, nil
}

// Rules reads the settings' permission rules, in companion's syntax or
// Claude Code's (policy.ParseRuleAt); known, when set, accepts tool
// names besides companion's built-in ones. A rule that cannot be read is
// an error, but for a settings file's allow rule in Claude Code's syntax
// with a pattern companion does not read: it is left out (nothing is
// allowed that was not meant) and notes say so.
func Rules(cfg config.Config, known func(string) bool, extraAllow ...string) (policy.Rules, []string, error) {
	var rules policy.Rules
	var notes []string
	p := cfg.Permissions
	home, _ := os.UserHomeDir()
	for _, set := range []struct {
		in  []string
		out *[]policy.Rule
	}{{append(append([]string(nil), p.Allow...), extraAllow...), &rules.Allow}, {p.Ask, &rules.Ask},
		{p.Deny, &rules.Deny}, {p.Only, &rules.Only}} {
		for _, text := range set.in {
			where := p.Origins[text]
			file := where
			if i := strings.LastIndex(where, ":"); i > 0 {
				file = where[:i]
			}
			at := policy.Place{Home: home}
			if file != "" {
				at.Dir = filepath.Dir(file)
			}
			r, err := policy.ParseRuleAt(text, at, known)
			if err != nil && where != "" {
				err = fmt.Errorf("%s: permission %w", where, err)
			} else if err != nil {
				err = fmt.Errorf("permission %w", err)
			}
			switch {
			case err != nil && set.out == &rules.Allow && where != "" && errors.Is(err, policy.ErrUnsupported):
				notes = append(notes, err.Error()+"; the rule is left out")
			case err != nil:
				return rules, notes, err
			default:
				*set.out = append(*set.out, r)
			}
		}
	}
	return rules, notes, nil
}

// Hooks builds the hook runner from the user's hooks, then the project's,
// then extra (hooks a front end's client registered); bad entries are
// logged and skipped. It returns nil when there is no hook at all.
func Hooks(cfg config.Config, log *slog.Logger, extra hooks.Config) *hooks.Runner {
	r, _ := hookRunner(cfg, log, extra, nil, nil)
	return r
}

// hookRunner is Hooks with the project's hooks held to projectOn (when
// set: they run only while it says so) and every hook command run
// through wrap (the sandbox; nil runs them as they are). problems say
// which hooks were skipped and why, for the user.
func hookRunner(cfg config.Config, log *slog.Logger, extra hooks.Config, projectOn func() bool,
	wrap func([]string) ([]string, error)) (r *hooks.Runner, problems []string) {
	var all hooks.Config
	for i, raw := range []json.RawMessage{cfg.Hooks, cfg.ProjectHooks} {
		if len(raw) == 0 {
			continue
		}
		src := cfg.Sources[[]string{"hooks", "projectHooks"}[i]]
		h, err := hooks.ParseAs(raw, strings.Contains(filepath.ToSlash(src), "/.claude/"))
		if err != nil {
			log.Warn("some hooks were skipped", "settings", src, "err", err)
			problems = append(problems, fmt.Sprintf("Some hooks of %s were skipped: %v", src, err))
		}
		if i == 1 && projectOn != nil {
			h = h.Gated(projectOn)
		}
		all = all.Merge(h)
	}
	all = all.Merge(extra)
	if all.Empty() {
		return nil, problems
	}
	return hooks.NewRunner(all, hooks.Options{Log: log, Wrap: wrap}), problems
}

// Base is what every front end's session needs besides its client's
// offers: the parts of agent.Options that come from the settings.
type Base struct {
	ID      string
	Roots   *tools.Roots
	Config  config.Config
	Trusted bool
	// Untrusted says why the workspace is not trusted (see UntrustedNotice);
	// the session then starts with that notice.
	Untrusted string
	Tools     *tools.Registry
	Log       *slog.Logger
	// Hooks are hooks registered by the client, run after the settings'.
	Hooks hooks.Config
	// AllowRules are allow rules added for this session only.
	AllowRules []string
	// Getenv reads the environment (HOME for the user's memory files);
	// nil is os.Getenv.
	Getenv func(string) string
	// ProjectOn, when set, holds the project's hooks back while it
	// reports false (the workspace lost trust after the session opened).
	ProjectOn func() bool
	// Sandbox picks the sandbox backend for hooks and /status (the
	// host's, one probe per process); nil probes for each sandbox.
	Sandbox *sandbox.Prober
}

// AgentOptions fills agent.Options from the settings: policy, memory,
// subagents, slash commands, hooks, checkpoints and limits. The caller
// adds the model, the sink and its client's files, terminals and asker.
func AgentOptions(b Base) (agent.Options, error) {
	root := b.Roots.Primary()
	cfg := b.Config
	pol, ruleNotes, err := Policy(cfg, b.Roots, b.Tools, b.Trusted, b.AllowRules...)
	if err != nil {
		return agent.Options{}, err
	}
	log := b.Log.With("session", b.ID)
	getenv := b.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	opts := agent.Options{
		ID: b.ID, Roots: b.Roots, ModelName: cfg.Model, Models: cfg.Models, Tools: b.Tools,
		Policy: pol, SaveRule: func(rule string) error { return cfg.SaveProjectAllowRule(root, rule) },
		StateDir:   filepath.Join(cfg.StateDir, "sessions", b.ID),
		Memory:     memory.Options{FileNames: cfg.MemoryFileNames, UserDirs: cfg.MemoryDirs(getenv), Log: b.Log},
		CompressAt: cfg.CompressionThreshold, Log: log, MaxRequests: cfg.MaxTurnRequests,
	}
	opts.Prompt.Disable, opts.Prompt.Sandbox, opts.Prompt.SandboxNetwork = cfg.SystemPrompt.Disable, cfg.Sandbox, cfg.SandboxNetwork
	opts.Prompt.Shell = cfg.Shell
	opts.Agents, opts.SlashCommands = definitions(root, cfg.ConfigDir(), getenv("HOME"), b.Trusted, log)
	var hookProblems []string
	opts.Hooks, hookProblems = hookRunner(cfg, log, b.Hooks, b.ProjectOn, commandWrap(commandSandbox(cfg, b.Sandbox), b.Roots, hooksNetwork(cfg)))
	opts.SandboxProber = b.Sandbox
	addSkills(&opts, b, getenv, pol.Trusted, log)
	if !b.Trusted && b.Untrusted != "" {
		opts.Notices = append(opts.Notices, agent.Notice{Level: "warning", Text: UntrustedNotice(b.Untrusted)})
	}
	for _, w := range slices.Concat(cfg.Warnings, ruleNotes, hookProblems) {
		opts.Notices = append(opts.Notices, agent.Notice{Level: "warning", Text: w})
	}
	for _, u := range cfg.Unread {
		opts.Notices = append(opts.Notices, agent.Notice{Level: "info", Text: u})
	}
	if pending := cfg.PendingProject; pending != nil {
		opts.Notices = append(opts.Notices, agent.Notice{Level: "warning", Text: PendingText(pending)})
		opts.AcceptSettings = func() (string, error) {
			if !pol.Trusted() {
				return "", errUntrusted
			}
			return acceptPending(cfg, pending)
		}
	}
	if st, err := checkpoint.Open(checkpoint.StateDir(filepath.Join(cfg.StateDir, "checkpoints"), root), root, log); err == nil {
		opts.Checkpoints = st
	} else {
		log.Warn("checkpoints are off", "err", err)
	}
	return opts, nil
}

// definitions loads the subagents and file commands of the user config
// directory and Gemini CLI's and Claude Code's folders in home and, in a
// trusted workspace only, of the project under root (see
// agent.AgentFolders and slash.Folders). Broken files are logged and
// skipped.
func definitions(root, userDir, home string, trusted bool, log *slog.Logger) ([]agent.AgentDef, []slash.Command) {
	projectRoot := root
	if !trusted {
		projectRoot = ""
	}
	agents, errs := agent.LoadAgentFolders(agent.AgentFolders(projectRoot, userDir, home))
	for _, err := range errs {
		log.Warn("subagent definition skipped", "err", err)
	}
	cmds, errs := slash.LoadFolders(slash.Folders(projectRoot, userDir, home))
	for _, err := range errs {
		log.Warn("slash command skipped", "err", err)
	}
	return agents, cmds
}
