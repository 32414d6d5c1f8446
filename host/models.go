package host

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"slices"
	"sync"
	"time"

	"companion/agent/model"
	"companion/agent/model/gemini"
	"companion/agent/model/openai"
	"companion/agent/model/scripted"
	"companion/agent/model/textproto"
	"companion/config"
)

// Models builds model providers on first use, so start-up does no network
// or credential work, and builds a new one when the settings that shape
// the provider change (after authenticate re-reads them, say). With a
// script it also starts the scripted server, in the provider's own wire
// shape, so the real client code runs. Sessions keep the provider they
// were given; Close ends every scripted server it started.
type Models struct {
	log *slog.Logger

	// mu guards the fields below.
	mu sync.Mutex
	// key describes the settings m was built from.
	key string
	m   model.Model
	// closers end the scripted servers started so far.
	closers []io.Closer
}

// NewModels returns a model source that logs to log; it does no I/O.
func NewModels(log *slog.Logger) *Models {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Models{log: log}
}

// Get returns the provider for cfg: the one built last when cfg's provider
// settings are those it was built from, else a new one.
func (s *Models) Get(ctx context.Context, cfg config.Config) (model.Model, error) {
	key := providerKey(cfg)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m != nil && s.key == key {
		return s.m, nil
	}
	m, err := s.build(ctx, cfg)
	if err != nil {
		return nil, err
	}
	if cfg.TextProtocol {
		m = textproto.Wrap(m)
	}
	s.m, s.key = m, key
	return m, nil
}

// providerKey is the part of cfg a provider is built from, as text.
func providerKey(cfg config.Config) string {
	b, _ := json.Marshal(struct {
		Provider, APIKey, Project, Location, BaseURL, Script string
		VertexAI, TextProtocol                               bool
		OpenAI                                               config.OpenAI
		Retry                                                config.Retry
	}{cfg.Provider, cfg.APIKey, cfg.Project, cfg.Location, cfg.BaseURL, cfg.Script,
		cfg.VertexAI, cfg.TextProtocol, cfg.OpenAI, cfg.Retry})
	return string(b)
}

// build makes the provider cfg names; s.mu is held.
func (s *Models) build(ctx context.Context, cfg config.Config) (model.Model, error) {
	retry := retryPolicy(cfg.Retry)
	if cfg.Provider == config.ProviderOpenAI {
		oc := openai.Config{APIKey: cfg.OpenAI.APIKey, BaseURL: cfg.OpenAI.BaseURL, Logger: s.log,
			ContextWindow: cfg.OpenAI.ContextWindow, Headers: cfg.OpenAI.Headers, Retry: retry}
		if cfg.Script != "" {
			srv, err := scripted.NewOpenAIServer(loadScript(cfg.Script), s.log)
			if err != nil {
				return nil, err
			}
			s.closers = append(s.closers, closeFunc(srv.Close))
			oc.APIKey, oc.BaseURL = "demo", srv.URL()
		}
		return openai.New(ctx, oc)
	}
	gc := gemini.Config{APIKey: cfg.APIKey, UseVertexAI: cfg.VertexAI, Project: cfg.Project,
		Location: cfg.Location, BaseURL: cfg.BaseURL, Logger: s.log, Retry: retry}
	if cfg.Script != "" {
		srv, err := scripted.NewServer(loadScript(cfg.Script), s.log)
		if err != nil {
			return nil, err
		}
		s.closers = append(s.closers, closeFunc(srv.Close))
		gc.APIKey, gc.UseVertexAI, gc.BaseURL = "demo", false, srv.URL()
	}
	return gemini.New(ctx, gc)
}

func retryPolicy(r config.Retry) model.RetryPolicy {
	return model.RetryPolicy{
		MaxAttempts: r.MaxAttempts,
		BaseDelay:   time.Duration(r.BaseDelayMs) * time.Millisecond,
		MaxDelay:    time.Duration(r.MaxDelayMs) * time.Millisecond,
	}
}

// loadScript reads a script file, or the built-in demo for "demo". A
// broken file falls back to the demo script, which says so.
func loadScript(path string) *scripted.Script {
	if path == "demo" {
		return scripted.DemoScript()
	}
	sc, err := scripted.LoadScript(path)
	if err != nil {
		return &scripted.Script{Fallback: scripted.FallbackError, Turns: []scripted.Turn{{Status: 500, Message: "script " + path + ": " + err.Error(), Times: 1 << 30}}}
	}
	return sc
}

// Close ends the scripted servers the source started.
func (s *Models) Close() {
	s.mu.Lock()
	closers := s.closers
	s.closers = nil
	s.mu.Unlock()
	for _, c := range closers {
		c.Close()
	}
}

// closeFunc adapts a Close method without an error.
type closeFunc func()

func (f closeFunc) Close() error { f(); return nil }

// listTimeout bounds asking a server for its models when a session opens.
const listTimeout = 3 * time.Second

// serverModels is what the model picker offers on an OpenAI-compatible
// server whose models the user did not list: the configured model and,
// when ask is set (a front end with a picker), the ones the server names
// (GET /models). Gemini's names are never offered there. When the server
// cannot say, only the configured model.
func serverModels(ctx context.Context, cfg config.Config, m model.Model, ask bool, log *slog.Logger) []string {
	if cfg.Provider != config.ProviderOpenAI || !slices.Equal(cfg.Models, config.DefaultModels()) {
		return cfg.Models
	}
	out := []string{cfg.Model}
	l, ok := m.(model.Lister)
	if !ok || !ask {
		return out
	}
	ctx, cancel := context.WithTimeout(ctx, listTimeout)
	defer cancel()
	names, err := l.ListModels(ctx)
	if err != nil {
		log.Warn("the server's models are not listed in the picker", "err", err)
		return out
	}
	for _, n := range names {
		if n != cfg.Model {
			out = append(out, n)
		}
	}
	return out
}
