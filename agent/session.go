package agent

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"companion/agent/hooks"
	"companion/agent/memory"
	"companion/agent/model"
	"companion/agent/skills"
	"companion/agent/slash"
	"companion/ide"
	"companion/tools"
	"companion/tools/policy"
	"companion/tools/sandbox"
)

// DefaultMaxRequests bounds the model requests one prompt may make.
const DefaultMaxRequests = 100

// Options configure a Session. Roots, Model, Tools and Sink are required.
type Options struct {
	ID    string
	Roots *tools.Roots
	Model model.Model
	// ModelName is the model id used for requests; Models are those the user
	// may switch to (ModelName is added when missing).
	ModelName string
	Models    []string
	Tools     *tools.Registry
	// Files reads through the editor; nil reads the local disk.
	Files tools.Files
	Sink  Sink
	Log   *slog.Logger
	// MaxRequests bounds model requests per prompt; 0 means DefaultMaxRequests.
	MaxRequests int
	// Mode is the initial approval mode; "" means ModeDefault.
	Mode string
	// Policy decides about tool calls; nil builds one from Mode that trusts
	// the folder and has no rules.
	Policy *policy.Policy
	// Asker asks the user about calls the policy cannot decide; nil refuses
	// them.
	Asker Asker
	// Questions puts ask_user's questions to the user; nil: no one can
	// answer them.
	Questions tools.Questioner
	// SaveRule persists an "always allow" rule to the project settings;
	// nil keeps such answers for the session only.
	SaveRule func(rule string) error
	// Checkpoints saves files before mutating calls, for /undo; may be nil.
	Checkpoints Checkpointer
	// Forks reads the journal back and stores forks, for /rewind; may be nil.
	Forks Forker
	// Terminals runs commands in the editor; nil runs them locally.
	Terminals tools.Terminals
	// StateDir holds the session's private files; "" means a temp dir.
	StateDir string
	// Memory says where instruction files (AGENTS.md, GEMINI.md) are read
	// from; the zero value reads the project's.
	Memory memory.Options
	// FallbackModel takes over when the model keeps failing for quota;
	// "" means none.
	FallbackModel string
	// MCP is the session's MCP servers; may be nil. Close closes it.
	MCP MCPServers
	// Hooks run the user's hook commands at the agent's events; may be nil.
	Hooks *hooks.Runner
	// SlashCommands are the commands defined in files (.companion/commands).
	SlashCommands []slash.Command
	// Agents are the subagents the model may delegate to; none means no
	// delegate_to_agent tool.
	Agents []AgentDef
	// Depth is how deep this session is in a chain of delegations.
	Depth int
	// SystemPrompt, when set, replaces the base instructions (subagents).
	SystemPrompt string
	// AppendSystemPrompt is added after the base instructions (an SDK's
	// own instructions).
	AppendSystemPrompt string
	// Prompt is what the system prompt says of the sandbox and the
	// skills, and the parts turned off (prompt.go).
	Prompt PromptOptions
	// Journal records the session so it can be loaded again; may be nil.
	Journal Journal
	// CompressAt is the share of the context window at which older history
	// is summarised; 0 means DefaultCompressAt, negative never.
	CompressAt float64
	// TodoReminderEvery reminds the model of open todos every this many
	// model requests; 0 means 3, negative never.
	TodoReminderEvery int
	// Now is the clock, for tests; nil means time.Now.
	Now func() time.Time
	// Notices are told to the user once, when the first prompt starts
	// (settings held back until the user accepts them, say).
	Notices []Notice
	// AcceptSettings, when set, is what /accept-settings runs: it accepts
	// the project settings that were held back and says what happened.
	AcceptSettings func() (string, error)
	// Telemetry observes the session for export; nil (telemetry off)
	// observes nothing. Subagents share their parent's.
	Telemetry Telemetry
	// SandboxProber picks the sandbox backend /status reports (the host's,
	// shared with the sandboxes that run commands); nil probes on its own.
	SandboxProber *sandbox.Prober
	// Skills are the session's Agent Skills: the /skill-name commands and
	// /skills (skills.go); the caller also adds the catalog's activate_skill
	// tool to Tools. Nil means none.
	Skills *skills.Catalog
	// Diagnostics are the language servers' diagnostics after an edit,
	// asked when the editor gives none; nil means none.
	Diagnostics Diagnoser
	// EditorDiagnostics is the editor's own language features, asked for
	// an edited file's diagnostics (it answers nothing for files it has no
	// language features for); when set, it is asked instead of reading
	// the diagnostics the editor sends in its context. Nil reads those.
	EditorDiagnostics Diagnoser
	// LanguageServers lists the language servers for /status, one line
	// each; nil lists none.
	LanguageServers func() []string
}

// Session is one conversation. It runs at most one turn at a time; its
// methods are safe for concurrent use.
//
// Session is a facade over parts that each keep their own state behind
// their own lock (or none): the turn gate (gate.go), the turn engine
// (turn.go: the history and its compression, the system prompt, the
// chain a tool call runs through), the command layer (commands.go), the
// journal writer (journal.go) and its replay (resume.go), the model
// picker (modelswitch.go), the counts (stats.go), the plan (plan.go) and
// the editor context (ide.Tracker). No lock is held while another part's
// is taken.
type Session struct {
	// Set by NewSession and never changed after: no lock.
	opts Options
	env  *tools.Env
	// policy decides about tool calls; it has its own lock.
	policy *policy.Policy
	// delegate is the delegate_to_agent tool when the session has
	// subagents; nil otherwise. It is not in opts.Tools, which the caller
	// owns.
	delegate tools.Tool
	// planTools are exit_plan_mode and enter_plan_mode (planmode.go),
	// the session's own like delegate; none in a subagent.
	planTools []tools.Tool
	// eng is the turn engine (turn.go).
	eng *engine
	// cmds is the command layer (commands.go).
	cmds commands
	// jw writes the session's journal.
	jw *journalWriter
	// dataNonce names the session's data frames (see untrusted.go).
	dataNonce string

	// Parts with their own lock.
	// turn lets one turn run at a time.
	turn gate
	// models is the model in use and those offered.
	models *modelPicker
	// stats counts requests, tokens and calls.
	stats *stats
	// todos is the model's plan.
	todos *todos
	// ide tracks what the user sees in the editor; never nil.
	ide *ide.Tracker
	// Small values, each behind its own lock: undone is what the last
	// /undo did (zero after anything else); thoughtLevel is the level
	// picked ("" means auto); memory is the instruction files once loaded.
	undone       locked[undoMark]
	thoughtLevel locked[string]
	memory       locked[*memory.Memory]

	// Atomics, no lock.
	// stateOnce makes the state directory on the first prompt.
	stateOnce sync.Once
	// First-time flags, each set once: started (SessionStart hooks ran),
	// mcpWaited (MCP servers had their time to connect), noticed
	// (Options.Notices were told), titled (the session has a title).
	started, mcpWaited, noticed, titled atomic.Bool
	// tel is Options.Telemetry with what it needs kept; nil when off.
	tel *telemetryHooks
	// stopPrep ends the checkpoint store's background preparation (see
	// prepareCheckpoints); nil when none was started.
	stopPrep func()
}

// NewSession builds a session. It does no I/O itself (the checkpoint
// store starts preparing in the background, see prepareCheckpoints) and
// leaves opts (and what it points to) as it found them: defaults fill a copy, the subagent tool
// is the session's own, and the state directory is made on the first
// prompt (see prepareState). The system prompt is built on the first
// prompt too.
func NewSession(opts Options) (*Session, error) {
	opts, err := withDefaults(opts)
	if err != nil {
		return nil, err
	}
	jw := &journalWriter{j: opts.Journal, log: opts.Log, now: opts.Now}
	s := &Session{opts: opts, jw: jw, dataNonce: newDataNonce(),
		models: newModelPicker(opts.ModelName, opts.Models), stats: newStats(),
		todos: &todos{every: opts.TodoReminderEvery}, policy: opts.Policy}
	s.eng, s.cmds = &engine{Session: s, hist: &history{journal: jw}}, commands{s}
	s.ide = s.newIDETracker()
	if opts.Telemetry != nil {
		s.tel = &telemetryHooks{t: opts.Telemetry}
	}
	s.eng.runChain = s.eng.toolChain()
	if len(opts.Agents) > 0 && opts.Depth < MaxAgentDepth {
		d := &delegateTool{parent: s, agents: opts.Agents}
		if _, ok := opts.Tools.Get(d.Name()); ok {
			return nil, fmt.Errorf("agent: %w: %q", tools.ErrDuplicateTool, d.Name())
		}
		s.delegate = d
	}
	if opts.Depth == 0 { // a subagent's mode is its parent's to change
		s.planTools = []tools.Tool{&planTool{s: s}, &planTool{s: s, enter: true}}
	}
	for _, t := range s.planTools {
		if _, ok := opts.Tools.Get(t.Name()); ok {
			return nil, fmt.Errorf("agent: %w: %q", tools.ErrDuplicateTool, t.Name())
		}
	}
	if s.policy == nil {
		s.policy = policy.New(policy.Options{Mode: opts.Mode, Trusted: true, Roots: opts.Roots})
	}
	s.env = &tools.Env{Roots: opts.Roots, Files: opts.Files, Terminals: opts.Terminals, Questions: opts.Questions,
		StateDir: opts.StateDir, Background: tools.NewBackground(), Log: opts.Log, ReadDenied: s.policy.ReadDenied}
	s.prepareCheckpoints()
	return s, nil
}

// withDefaults checks opts and returns a copy with the defaults filled
// in; slices it changes are copied first.
func withDefaults(opts Options) (Options, error) {
	if opts.Roots == nil || opts.Model == nil || opts.Tools == nil || opts.Sink == nil {
		return opts, fmt.Errorf("agent: session %q needs roots, a model, tools and a sink", opts.ID)
	}
	if opts.Mode == "" {
		opts.Mode = ModeDefault
	}
	if !validMode(opts.Mode) {
		return opts, fmt.Errorf("%w %q", ErrUnknownMode, opts.Mode)
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	if opts.MaxRequests <= 0 {
		opts.MaxRequests = DefaultMaxRequests
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	opts.Models = slices.Clone(opts.Models)
	if !slices.Contains(opts.Models, opts.ModelName) {
		opts.Models = append([]string{opts.ModelName}, opts.Models...)
	}
	if opts.CompressAt == 0 {
		opts.CompressAt = DefaultCompressAt
	}
	if opts.TodoReminderEvery == 0 {
		opts.TodoReminderEvery = 3
	}
	return opts, nil
}

// prepareState makes the session's state directory, once, and lets the
// tools read it (saved command output lives there). It runs on the first
// prompt, not in NewSession, which does no I/O; a failure is logged and
// leaves the directory unreadable to the tools.
func (s *Session) prepareState() {
	s.stateOnce.Do(func() {
		dir := s.opts.StateDir
		if dir == "" {
			return
		}
		err := os.MkdirAll(dir, 0o700)
		if _, rerr := s.opts.Roots.Resolve(dir); err == nil && rerr != nil {
			// Not yet readable (a subagent shares its parent's roots).
			err = s.opts.Roots.AllowRead(dir)
		}
		if err != nil {
			s.opts.Log.Warn("cannot prepare the session's state directory", "dir", dir, "err", err)
		}
	})
}

// ID is the session's id.
func (s *Session) ID() string { return s.opts.ID }

// Root is the session's working directory.
func (s *Session) Root() string { return s.opts.Roots.Primary() }

// Mode is the current approval mode id.
func (s *Session) Mode() string { return s.policy.Mode() }

// SetMode changes the approval mode; it applies to the next tool call.
func (s *Session) SetMode(id string) error {
	if err := s.checkMode(id); err != nil {
		return err
	}
	s.policy.SetMode(id)
	s.journal(recSettings, settingsRecord{Mode: id})
	return nil
}

// setModeAndAnnounce changes the mode on the agent's own initiative and
// tells the front end.
func (s *Session) setModeAndAnnounce(ctx context.Context, id string) {
	if s.checkMode(id) != nil {
		return
	}
	s.policy.SetMode(id)
	s.journal(recSettings, settingsRecord{Mode: id})
	s.emit(ctx, ModeChanged{ID: id})
}

// ModelName is the model the next request goes to.
func (s *Session) ModelName() string { return s.models.name() }

// Models lists the models the user may pick.
func (s *Session) Models() []string { return s.models.list() }

// SetModel switches the model for the next request.
func (s *Session) SetModel(name string) error {
	if err := s.models.set(name); err != nil {
		return err
	}
	s.journal(recSettings, settingsRecord{Model: name})
	return nil
}

// Cancel stops the running turn, if any. The turn's Prompt call returns
// Cancelled once its remaining events are out. Cancel on an idle session
// does nothing.
func (s *Session) Cancel() { s.turn.stop() }

// Close cancels any running turn, kills the session's background
// commands and refuses further prompts.
func (s *Session) Close() {
	s.turn.close()
	if s.stopPrep != nil {
		s.stopPrep()
	}
	if err := s.env.Background.Close(); err != nil {
		s.opts.Log.Warn("stopping background commands", "err", err)
	}
	if s.opts.MCP != nil {
		if err := s.opts.MCP.Close(); err != nil {
			s.opts.Log.Warn("stopping MCP servers", "err", err)
		}
	}
	if s.opts.Hooks != nil && s.opts.Hooks.Has(hooks.SessionEnd) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		s.hook(ctx, hooks.SessionEnd, "", map[string]any{"reason": "close"})
	}
}

// emit records an event and sends it to the front end.
func (s *Session) emit(ctx context.Context, ev Event) {
	s.journalEvent(ev)
	if s.tel != nil {
		s.tel.event(ctx, ev)
	}
	s.opts.Sink.Emit(ctx, ev)
}

// Roots are the session's roots now, the primary first: the directories
// its tools may touch (MCP servers that ask get them too).
func (s *Session) Roots() []string { return s.opts.Roots.All() }
