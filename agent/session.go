package agent

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"sync"
	"time"

	"companion/agent/hooks"
	"companion/agent/memory"
	"companion/agent/model"
	"companion/agent/slash"
	"companion/ide"
	"companion/tools"
	"companion/tools/policy"
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
	// SaveRule persists an "always allow" rule to the project settings;
	// nil keeps such answers for the session only.
	SaveRule func(rule string) error
	// Checkpoints saves files before mutating calls, for /undo; may be nil.
	Checkpoints Checkpointer
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
}

// Session is one conversation. It runs at most one turn at a time; its
// methods are safe for concurrent use.
type Session struct {
	opts Options
	env  *tools.Env

	policy *policy.Policy

	// mu guards the fields below.
	mu        sync.Mutex
	running   bool
	cancel    context.CancelFunc
	closed    bool
	modelName string
	// trialFrom is the model to go back to while modelName is on trial
	// (see TrySetModel); "" when it is not.
	trialFrom string
	// undone is what the last /undo did; zero after anything else.
	undone   undoMark
	plan     []tools.PlanEntry
	requests int
	// lastUsed and lastWindow are the context use the model last reported.
	lastUsed, lastWindow int
	compactions          int
	stats                *stats
	memory               *memory.Memory
	thoughtLevel         string
	started              bool
	mcpWaited            bool
	// noticed is set once Options.Notices were told.
	noticed bool
	// ide tracks what the user sees in the editor; never nil.
	ide     *ide.Tracker
	history []model.Content
	titled  bool
	system  string
	callSeq int
}

// NewSession builds a session. It does no I/O; the system prompt is built on
// the first prompt.
func NewSession(opts Options) (*Session, error) {
	if opts.Roots == nil || opts.Model == nil || opts.Tools == nil || opts.Sink == nil {
		return nil, fmt.Errorf("agent: session %q needs roots, a model, tools and a sink", opts.ID)
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
	if opts.Mode == "" {
		opts.Mode = ModeDefault
	}
	if !validMode(opts.Mode) {
		return nil, fmt.Errorf("%w %q", ErrUnknownMode, opts.Mode)
	}
	if !slices.Contains(opts.Models, opts.ModelName) {
		opts.Models = append([]string{opts.ModelName}, opts.Models...)
	}
	if opts.CompressAt == 0 {
		opts.CompressAt = DefaultCompressAt
	}
	if opts.TodoReminderEvery == 0 {
		opts.TodoReminderEvery = 3
	}
	if opts.StateDir != "" {
		// Saved command output lives here; tools may read it back.
		if err := os.MkdirAll(opts.StateDir, 0o700); err == nil {
			opts.Roots.AllowRead(opts.StateDir)
		}
	}
	s := &Session{opts: opts, modelName: opts.ModelName, policy: opts.Policy}
	s.ide = s.newIDETracker()
	if len(opts.Agents) > 0 && opts.Depth < MaxAgentDepth {
		if err := opts.Tools.Add(&delegateTool{parent: s, agents: opts.Agents}); err != nil {
			return nil, fmt.Errorf("agent: %w", err)
		}
	}
	if s.policy == nil {
		s.policy = policy.New(policy.Options{Mode: opts.Mode, Trusted: true, Roots: opts.Roots})
	}
	s.env = &tools.Env{Roots: opts.Roots, Files: opts.Files, Terminals: opts.Terminals,
		StateDir: opts.StateDir, Background: tools.NewBackground(), Log: opts.Log}
	return s, nil
}

// ID is the session's id.
func (s *Session) ID() string { return s.opts.ID }

// Root is the session's working directory.
func (s *Session) Root() string { return s.opts.Roots.Primary() }

// Mode is the current approval mode id.
func (s *Session) Mode() string { return s.policy.Mode() }

// SetMode changes the approval mode; it applies to the next tool call.
func (s *Session) SetMode(id string) error {
	if !validMode(id) {
		return fmt.Errorf("%w %q", ErrUnknownMode, id)
	}
	s.policy.SetMode(id)
	s.journal(recSettings, settingsRecord{Mode: id})
	return nil
}

// setModeAndAnnounce changes the mode on the agent's own initiative and
// tells the front end.
func (s *Session) setModeAndAnnounce(ctx context.Context, id string) {
	s.policy.SetMode(id)
	s.journal(recSettings, settingsRecord{Mode: id})
	s.emit(ctx, ModeChanged{ID: id})
}

// ModelName is the model the next request goes to.
func (s *Session) ModelName() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.modelName
}

// Models lists the models the user may pick.
func (s *Session) Models() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.opts.Models)
}

// SetModel switches the model for the next request.
func (s *Session) SetModel(name string) error {
	if !slices.Contains(s.Models(), name) {
		return fmt.Errorf("%w %q", ErrUnknownModel, name)
	}
	s.mu.Lock()
	s.modelName, s.trialFrom = name, ""
	s.mu.Unlock()
	s.journal(recSettings, settingsRecord{Model: name})
	return nil
}

// Cancel stops the running turn, if any. The turn's Prompt call returns
// Cancelled once its remaining events are out. Cancel on an idle session
// does nothing.
func (s *Session) Cancel() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cancel != nil {
		s.cancel()
	}
}

// Close cancels any running turn, kills the session's background
// commands and refuses further prompts.
func (s *Session) Close() {
	s.mu.Lock()
	s.closed = true
	if s.cancel != nil {
		s.cancel()
	}
	s.mu.Unlock()
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

// begin marks the session busy and returns the turn's context.
func (s *Session) begin(ctx context.Context) (context.Context, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closed:
		return nil, ErrClosed
	case s.running:
		return nil, ErrBusy
	}
	ctx, cancel := context.WithCancel(ctx)
	s.running, s.cancel = true, cancel
	return ctx, nil
}

// end marks the session idle again.
func (s *Session) end() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cancel != nil {
		s.cancel()
	}
	s.running, s.cancel = false, nil
}

// emit records an event and sends it to the front end.
func (s *Session) emit(ctx context.Context, ev Event) {
	s.journalEvent(ev)
	s.opts.Sink.Emit(ctx, ev)
}
