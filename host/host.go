package host

import (
	"context"
	"log/slog"
	"sync"

	"companion/agent/model"
	"companion/agent/store"
	"companion/config"
	"companion/ide"
	"companion/tools"
	"companion/tools/lsp"
	"companion/tools/sandbox"
)

// Options configure a Host. Model and Tools are required.
type Options struct {
	// Name and Version describe companion to MCP servers and the IDE.
	Name, Version string
	// Config is the configuration at start-up; SetConfig replaces it.
	Config config.Config
	// Model returns the model provider for a session's settings (see
	// Models.Get).
	Model func(ctx context.Context, cfg config.Config) (model.Model, error)
	// Tools returns the tool registry for a new session.
	Tools func(cfg config.Config) *tools.Registry
	// IDE links to an IDE that follows the Gemini CLI IDE companion spec
	// when one is found: its context reaches the sessions under its
	// workspace, and edits are offered in its diff view too.
	IDE bool
	// Getenv reads the environment the settings came from (HOME for the
	// user's memory files); nil is os.Getenv.
	Getenv func(string) string
	Log    *slog.Logger
	// Redact, when set, replaces secret values (API keys) in the records
	// written to session files; see package secrets.
	Redact func([]byte) []byte
	// Sandbox picks the command sandbox's backend once for the process:
	// the sandboxes of hooks and MCP servers, /status and Sandbox() use
	// it, and the front end gives it to the shell tool's sandbox. New
	// makes one for this host when it is nil.
	Sandbox *sandbox.Prober
}

// Host builds, keeps and ends the sessions of one front end (one ACP
// connection, one headless run): their settings, model, tools, MCP
// servers, journal and IDE link.
type Host struct {
	opts Options
	log  *slog.Logger
	ide  *ideLink
	// lsp runs the language servers of every session of the host.
	lsp *lsp.Pool

	// trustMu serialises trust changes (ACP updates and the IDE link) so
	// that a session's agent ends with the trust its host last computed.
	trustMu sync.Mutex

	// mu guards the fields below.
	mu       sync.Mutex
	cfg      config.Config
	sessions map[string]*Session
	// st keeps sessions on disk; opened on first use.
	st *store.Store
	// editorTrust is the editor's last connection-wide isTrusted (a context
	// update without a session id); nil until it says.
	editorTrust *bool
}

// New returns a host; it does no I/O.
func New(opts Options) *Host {
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	if opts.Sandbox == nil {
		opts.Sandbox = sandbox.NewProber(nil)
	}
	h := &Host{opts: opts, log: opts.Log, cfg: opts.Config, sessions: map[string]*Session{}}
	h.ide = &ideLink{h: h}
	h.lsp = lsp.NewPool(lsp.PoolOptions{Name: opts.Name, Version: opts.Version, Log: opts.Log})
	return h
}

// Config returns the current configuration.
func (h *Host) Config() config.Config {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.cfg
}

// SetConfig replaces the configuration for sessions opened from now on
// (authenticate re-reads the settings); the model source builds a new
// provider when the provider settings changed.
func (h *Host) SetConfig(cfg config.Config) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.cfg = cfg
}

// Sandbox returns the prober that picks the command sandbox's backend for
// every session of the host (and of the process, when the front end gave
// it in Options); it probes when first asked.
func (h *Host) Sandbox() *sandbox.Prober { return h.opts.Sandbox }

// Store returns the session store, opened on first use under the state
// directory.
func (h *Host) Store() *store.Store {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.st == nil {
		h.st = OpenStore(h.cfg, h.log)
	}
	return h.st
}

// Session returns the live session with id.
func (h *Host) Session(id string) (*Session, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	s, ok := h.sessions[id]
	return s, ok
}

// Drop closes a live session and forgets it.
func (h *Host) Drop(s *Session) {
	h.mu.Lock()
	if h.sessions[s.ID] == s {
		delete(h.sessions, s.ID)
	}
	h.mu.Unlock()
	s.close(h.log)
}

// Delete closes the live session with id, if any, and removes it from the
// store; an unknown id is no error.
func (h *Host) Delete(id string) error {
	if s, ok := h.Session(id); ok {
		h.Drop(s)
	}
	return h.Store().Delete(id)
}

// Close ends every session and the IDE link. The sessions' telemetry is
// flushed side by side within one telemetry.ShutdownTimeout, however many
// there are (closeSessions).
func (h *Host) Close() {
	h.mu.Lock()
	sessions := make([]*Session, 0, len(h.sessions))
	for _, s := range h.sessions {
		sessions = append(sessions, s)
	}
	h.sessions = map[string]*Session{}
	h.mu.Unlock()
	closeSessions(sessions, h.log)
	h.ide.close()
	h.lsp.Close()
}

// register makes s findable by its id.
func (h *Host) register(s *Session) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.sessions[s.ID] = s
}

// live returns every live session.
func (h *Host) live() []*Session {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]*Session, 0, len(h.sessions))
	for _, s := range h.sessions {
		out = append(out, s)
	}
	return out
}

// UpdateIDEContext hands an editor's context to the live session id, or
// to every live session when id is empty. Its isTrusted decides the trust
// of those sessions and, without an id, of the sessions opened after it.
func (h *Host) UpdateIDEContext(id string, c ide.Context) {
	for _, s := range h.live() {
		if id == "" || s.ID == id {
			s.Agent.UpdateIDEContext(c)
			s.rootsMayHaveChanged()
		}
	}
	h.applyEditorTrust(id, c)
}
