package host

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"

	"companion/agent"
	"companion/agent/hooks"
	"companion/agent/store"
	"companion/config"
	"companion/tools"
	"companion/tools/lsp"
	"companion/tools/mcp"
)

// Request is what a front end asks of a session besides its ports.
type Request struct {
	// ID names the session to restore, or the new session (a
	// NewSessionID); empty, New makes one.
	ID string
	// Cwd is the primary root, Extra the additional ones: absolute,
	// existing directories.
	Cwd   string
	Extra []string
	// MCP are servers from the client; they win over the settings' on a
	// name clash.
	MCP []mcp.ServerConfig
	// Hooks are hooks the client registered, run after the settings'.
	Hooks hooks.Config
	// AllowRules are allow rules for this session only.
	AllowRules []string
	// Agents are subagents the client defined, added to the settings'.
	Agents []agent.AgentDef
	// SystemPrompt replaces the system prompt; AppendSystemPrompt adds to it.
	SystemPrompt, AppendSystemPrompt string
	// MaxRequests, when positive, bounds model requests per prompt.
	MaxRequests int
}

// Session is one live session: the agent session and what the host holds
// open for it.
type Session struct {
	ID    string
	Agent *agent.Session
	// Ports are what the front end gave the session.
	Ports Ports
	// MCP is the session's MCP servers; nil when it has none.
	MCP *mcp.Manager
	// Agents names the subagents the model may delegate to.
	Agents []string

	journal *store.Writer
	// trust is the session's workspace trust; the host's mu guards it.
	trust trust
	// project holds the project's hooks and MCP servers to that trust.
	project *projectGate
	// tel is the session's telemetry; nil when off (telemetry.go).
	tel *sessionTelemetry
	// lsp is the session's view of the host's language servers.
	lsp *lsp.Session
}

// close ends the agent session (and its MCP servers), flushes its
// telemetry (within telemetry.ShutdownTimeout) and closes its journal.
func (s *Session) close(log *slog.Logger) {
	closeSessions([]*Session{s}, log)
}

// closeSessions ends sessions: their agents (and MCP servers) one by
// one, then their telemetry side by side under one deadline
// (shutdownTelemetry), then their journals.
func closeSessions(sessions []*Session, log *slog.Logger) {
	for _, s := range sessions {
		s.Agent.Close()
		s.lsp.Close()
	}
	shutdownTelemetry(sessions)
	for _, s := range sessions {
		if s.journal == nil {
			continue
		}
		if err := s.journal.Close(); err != nil {
			log.Warn("closing session journal", "session", s.ID, "err", err)
		}
	}
}

// New builds a session with a fresh journal (and a fresh id unless the
// front end chose one with NewSessionID), registers it and
// starts its MCP servers in the background.
func (h *Host) New(ctx context.Context, req Request, p Ports) (*Session, error) {
	if _, err := Roots(req.Cwd, req.Extra); err != nil {
		return nil, err
	}
	if req.ID == "" {
		req.ID = NewSessionID()
	}
	journal, err := h.Store().Create(store.Meta{ID: req.ID, Cwd: req.Cwd, AdditionalDirectories: req.Extra})
	if err != nil {
		h.log.Warn("session will not be saved", "session", req.ID, "err", err)
		journal = nil
	}
	s, _, err := h.open(ctx, req, p, journal, nil)
	if err != nil && journal != nil {
		journal.Close()
	}
	return s, err
}

// Restore brings the stored session req.ID back, replacing a live session
// of the same id, and returns the events to replay.
func (h *Host) Restore(ctx context.Context, req Request, p Ports) (*Session, []agent.Event, error) {
	st := h.Store()
	_, recs, err := st.Load(req.ID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil, mark(ErrNotFound, fmt.Errorf("session %s not found", req.ID))
	}
	if err != nil {
		return nil, nil, fmt.Errorf("cannot read session %s: %w", req.ID, err)
	}
	if old, ok := h.Session(req.ID); ok {
		h.Drop(old)
	}
	journal, err := st.Append(req.ID)
	if err != nil {
		return nil, nil, fmt.Errorf("cannot reopen session %s: %w", req.ID, err)
	}
	s, events, err := h.open(ctx, req, p, journal, recs)
	if err != nil {
		journal.Close()
	}
	return s, events, err
}

// open makes the agent session, new (recs nil) or restored from its
// records, registers it, tells the observer and starts its MCP servers.
func (h *Host) open(ctx context.Context, req Request, p Ports, journal *store.Writer, recs []store.Record) (*Session, []agent.Event, error) {
	project := newProjectGate()
	opts, cfg, t, err := h.options(ctx, req, p, project)
	if err != nil {
		return nil, nil, err
	}
	if journal != nil {
		opts.Journal, opts.Forks = h.journalFor(journal), forker{h: h, id: req.ID}
	}
	opts.Hooks = opts.Hooks.WithRedact(h.opts.Redact) // secrets out of hooks' input
	s := &Session{ID: req.ID, Ports: p, journal: journal, Agents: []string{}, trust: t, project: project,
		tel: h.startTelemetry(ctx, h.Config().Telemetry, req.ID)}
	opts.Telemetry = s.tel.observer()
	for _, d := range opts.Agents {
		s.Agents = append(s.Agents, d.Name)
	}
	s.lsp = h.newLSP(cfg, &opts, project, p.Language)
	if servers, fromProject := mcpServers(cfg, h.log, req.MCP...); len(servers) > 0 {
		s.MCP = h.newMCP(sandboxServers(servers, fromProject, cfg, opts.Roots, project.mcp, h.opts.Sandbox, h.log), s)
		opts.MCP = s.MCP
	}
	var events []agent.Event
	if recs == nil {
		s.Agent, err = agent.NewSession(opts)
	} else {
		s.Agent, events, err = agent.Restore(opts, recs)
	}
	if err != nil {
		if s.MCP != nil {
			s.MCP.Close()
		}
		s.lsp.Close()
		s.tel.shutdown(context.Background())
		return nil, nil, err
	}
	s.tel.started(cfg, s)
	// What a companion killed mid-write left in the workspace; bounded.
	go tools.SweepStaleTemps(context.WithoutCancel(ctx), opts.Roots.All()...)
	h.register(s)
	if p.Observer != nil {
		p.Observer.Opened(s.Agent)
	}
	if h.opts.IDE {
		h.ide.start(s.Agent.Root())
		if first := h.ide.pending(); first != nil {
			s.Agent.AwaitIDEContext(first)
		}
	}
	if s.MCP != nil {
		s.MCP.Start(context.Background())
	}
	return s, events, nil
}

// options assembles the agent options of req from the settings, the
// model and the ports.
func (h *Host) options(ctx context.Context, req Request, p Ports, project *projectGate) (agent.Options, config.Config, trust, error) {
	roots, err := Roots(req.Cwd, req.Extra)
	if err != nil {
		return agent.Options{}, config.Config{}, trust{}, err
	}
	cfg := h.Config()
	t := h.sessionTrust(cfg, roots.Primary())
	if t.trusted() {
		cfg, _, err = SessionConfig(cfg, roots.Primary())
	} else {
		cfg, err = UntrustedConfig(cfg, roots.Primary())
	}
	if err != nil {
		return agent.Options{}, cfg, t, mark(ErrInvalid, err)
	}
	t.told, t.loaded = !t.trusted(), t.trusted()
	m, err := h.opts.Model(ctx, cfg)
	if err != nil {
		return agent.Options{}, cfg, t, fmt.Errorf("cannot start the model: %w", err)
	}
	opts, err := AgentOptions(Base{ID: req.ID, Roots: roots, Config: cfg, Trusted: t.trusted(), Untrusted: t.why(),
		Tools: h.opts.Tools(cfg), Log: h.log, Hooks: req.Hooks, AllowRules: req.AllowRules, Getenv: h.opts.Getenv,
		ProjectOn: project.enabled, Sandbox: h.opts.Sandbox})
	if err != nil {
		return agent.Options{}, cfg, t, mark(ErrRules, err)
	}
	opts.Model, opts.Sink, opts.Files, opts.Terminals, opts.Asker = m, p.Sink, p.Files, p.Terminals, p.Asker
	opts.Questions = p.Questions
	opts.Models = serverModels(ctx, cfg, m, !p.Headless, h.log)
	addWebSearch(&opts, cfg, m, h.log)
	if h.opts.IDE && p.Asker != nil {
		opts.Asker = &ideAsker{inner: p.Asker, link: h.ide}
	}
	if req.MaxRequests > 0 {
		opts.MaxRequests = req.MaxRequests
	}
	opts.Agents = append(opts.Agents, req.Agents...)
	opts.SystemPrompt, opts.AppendSystemPrompt = req.SystemPrompt, req.AppendSystemPrompt
	return opts, cfg, t, nil
}

// Roots checks cwd and the additional directories (absolute, existing
// directories) and returns them as roots; errors are ErrInvalid.
func Roots(cwd string, extra []string) (*tools.Roots, error) {
	for _, d := range append([]string{cwd}, extra...) {
		if !filepath.IsAbs(d) {
			return nil, mark(ErrInvalid, fmt.Errorf("directory %q must be an absolute path", d))
		}
		if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
			return nil, mark(ErrInvalid, fmt.Errorf("directory %q does not exist or is not a directory", d))
		}
	}
	roots, err := tools.NewRoots(cwd, extra...)
	if err != nil {
		return nil, mark(ErrInvalid, err)
	}
	return roots, nil
}
