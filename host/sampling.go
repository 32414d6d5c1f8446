package host

import (
	"context"
	"fmt"
	"log/slog"
	"sync"

	"companion/agent"
	"companion/tools/mcp"
)

// sampler runs MCP servers' sampling requests on a session's model: after
// the user allows it on a permission card, or without a card when the
// user's settings say "sampling": "allow" for the server (in a trusted
// workspace). A headless run never asks: without the setting it refuses.
type sampler struct {
	s        *Session
	m        *mcp.Manager
	headless bool
	log      *slog.Logger

	// mu guards always.
	mu sync.Mutex
	// always holds the servers the user let sample for the session.
	always map[string]bool
}

// Sample implements mcp.Sampler.
func (sm *sampler) Sample(ctx context.Context, req mcp.SamplingRequest) (mcp.SamplingResult, error) {
	a := sm.s.Agent
	if err := sm.permit(ctx, a, req); err != nil {
		sm.log.Info("mcp sampling refused", "server", req.Server, "err", err)
		return mcp.SamplingResult{}, err
	}
	return a.RunSampling(ctx, req)
}

// permit decides whether req may run, asking the user when it must; the
// error wraps mcp.ErrSamplingRefused.
func (sm *sampler) permit(ctx context.Context, a *agent.Session, req mcp.SamplingRequest) error {
	switch sm.m.SamplingPolicy(req.Server) {
	case mcp.SamplingDeny:
		return fmt.Errorf("%w: the settings do not let %s use the model", mcp.ErrSamplingRefused, req.Server)
	case mcp.SamplingAllow:
		if a.Trusted() {
			return nil
		}
	}
	sm.mu.Lock()
	always := sm.always[req.Server]
	sm.mu.Unlock()
	if always {
		return nil
	}
	if sm.headless {
		return fmt.Errorf("%w: a headless run cannot ask the user; set \"sampling\": \"allow\" in the user settings' entry for %s to allow it",
			mcp.ErrSamplingRefused, req.Server)
	}
	decision, err := a.AskSampling(ctx, req)
	switch decision {
	case agent.SamplingAlways:
		sm.mu.Lock()
		if sm.always == nil {
			sm.always = map[string]bool{}
		}
		sm.always[req.Server] = true
		sm.mu.Unlock()
		return nil
	case agent.SamplingOnce:
		return nil
	}
	if err != nil {
		return fmt.Errorf("%w: the user could not be asked: %w", mcp.ErrSamplingRefused, err)
	}
	return fmt.Errorf("%w: the user did not allow it", mcp.ErrSamplingRefused)
}
