package main

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"time"

	"companion/agent/model"
	"companion/agent/model/gemini"
	"companion/agent/model/openai"
	"companion/agent/model/scripted"
	"companion/agent/model/textproto"
	"companion/config"
)

// modelSource builds the model provider on first use, so start-up does no
// network or credential work. With a script it also starts the scripted
// server, in the provider's own wire shape, so the real client code runs.
type modelSource struct {
	cfg config.Config
	log *slog.Logger

	// mu guards closer and m.
	mu     sync.Mutex
	closer io.Closer
	m      model.Model
}

// get returns the provider, creating it once.
func (s *modelSource) get(ctx context.Context, cfg config.Config) (model.Model, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m != nil {
		return s.m, nil
	}
	m, err := s.build(ctx, cfg)
	if err != nil {
		return nil, err
	}
	if cfg.TextProtocol {
		m = textproto.Wrap(m)
	}
	s.m = m
	return m, nil
}

func (s *modelSource) build(ctx context.Context, cfg config.Config) (model.Model, error) {
	retry := retryPolicy(cfg.Retry)
	if cfg.Provider == config.ProviderOpenAI {
		oc := openai.Config{APIKey: cfg.OpenAI.APIKey, BaseURL: cfg.OpenAI.BaseURL, Logger: s.log,
			ContextWindow: cfg.OpenAI.ContextWindow, Headers: cfg.OpenAI.Headers, Retry: retry}
		if cfg.Script != "" {
			srv, err := scripted.NewOpenAIServer(loadScript(cfg.Script), s.log)
			if err != nil {
				return nil, err
			}
			s.closer = closeFunc(srv.Close)
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
		s.closer = closeFunc(srv.Close)
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

func (s *modelSource) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closer != nil {
		s.closer.Close()
	}
}

// closeFunc adapts a Close method without an error.
type closeFunc func()

func (f closeFunc) Close() error { f(); return nil }
