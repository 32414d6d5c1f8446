package acp

import (
	"context"

	"companion/config"
	"companion/rpc"
	"companion/tools/sandbox"
)

// ProtocolV1 is the only ACP version companion speaks.
const ProtocolV1 ProtocolVersion = 1

// authMethodAPIKey is a Gemini API key set outside the protocol: in the
// environment, the settings file or by companion login.
const authMethodAPIKey AuthMethodID = "gemini-api-key"

// authMethodLogin is `companion login` in a terminal the client opens;
// the client restarts companion afterwards, so it never reaches
// authenticate.
const authMethodLogin AuthMethodID = "login"

// Initialize records the client's capabilities and answers with ours. It
// always answers version 1: the client decides whether to go on.
func (c *connState) Initialize(_ context.Context, _ *rpc.Conn, p *InitializeRequest) (*InitializeResponse, error) {
	c.mu.Lock()
	c.initialized = true
	c.caps = p.ClientCapabilities
	c.mu.Unlock()
	return &InitializeResponse{
		ProtocolVersion: ProtocolV1,
		AgentCapabilities: AgentCapabilities{
			LoadSession:        true,
			PromptCapabilities: PromptCapabilities{Image: true, Audio: true, EmbeddedContext: true},
			MCPCapabilities:    MCPCapabilities{HTTP: true, SSE: true},
			SessionCapabilities: SessionCapabilities{
				Close:                 &SessionCloseCapabilities{},
				AdditionalDirectories: &SessionAdditionalDirectoriesCapabilities{},
				List:                  &SessionListCapabilities{},
				Delete:                &SessionDeleteCapabilities{},
				Resume:                &SessionResumeCapabilities{},
			},
			Auth: AgentAuthCapabilities{Logout: &LogoutCapabilities{}},
			// companion's extensions: the editor context notification, the
			// command sandbox.
			Meta: map[string]any{"companion": companionMeta(c.host.Config(), c.host.Sandbox())},
		},
		AuthMethods: authMethods(c.host.Config().SettingsPath, p.ClientCapabilities.Auth.Terminal),
		AgentInfo:   &Implementation{Name: c.srv.opts.Name, Title: "companion", Version: c.srv.opts.Version},
	}, nil
}

// authMethods are the ways to sign in: a key set outside companion, and,
// for clients that run agents in a terminal, `companion login`.
func authMethods(settingsPath string, terminal bool) []AuthMethod {
	ms := []AuthMethod{{Agent: &AuthMethodAgent{
		ID:   authMethodAPIKey,
		Name: "Gemini API key",
		Description: "Set GEMINI_API_KEY (or GOOGLE_API_KEY) in companion's environment, or apiKey in " + settingsPath +
			", or sign in with `companion login`, then authenticate.",
	}}}
	if terminal {
		ms = append(ms, AuthMethod{Terminal: &AuthMethodTerminal{ID: authMethodLogin, Name: "Sign in",
			Description: "Paste a Gemini API key, or choose Vertex AI or an OpenAI-compatible server, in a terminal.",
			Args:        []string{"login"}}})
	}
	return ms
}

// Authenticate re-reads the settings and succeeds when credentials are now
// known.
func (c *connState) Authenticate(_ context.Context, _ *rpc.Conn, p *AuthenticateRequest) (*AuthenticateResponse, error) {
	if p.MethodID != authMethodAPIKey {
		return nil, rpc.Errorf(rpc.CodeInvalidParams, "unknown authentication method %q; use %q", p.MethodID, authMethodAPIKey)
	}
	if reload := c.srv.opts.ReloadConfig; reload != nil {
		cfg, err := reload()
		if err != nil {
			return nil, rpc.Errorf(rpc.CodeAuthRequired, "cannot read settings: %v", err)
		}
		c.host.SetConfig(cfg)
	}
	c.mu.Lock()
	c.loggedOut = false
	c.mu.Unlock()
	if err := c.ready(true); err != nil {
		return nil, err
	}
	return &AuthenticateResponse{}, nil
}

// Logout makes every method that needs credentials answer "authentication
// required" until the client authenticates again. companion keeps no
// credentials of its own to erase: the key stays where the user put it
// (the environment or the settings file).
func (c *connState) Logout(context.Context, *rpc.Conn, *LogoutRequest) (*LogoutResponse, error) {
	c.mu.Lock()
	c.loggedOut = true
	c.mu.Unlock()
	return &LogoutResponse{}, nil
}

// companionMeta is companion's part of initialize's _meta: the editor
// context notification, the rewind, fork and stats extension methods, and the
// command sandbox when one is on: its mode, the backend that confines
// commands ("bwrap", "landlock", "seatbelt", or "none" when none can run
// here and commands are refused), why, and whether commands reach the
// network. probe is the host's, which the sessions' sandboxes share.
func companionMeta(cfg config.Config, probe *sandbox.Prober) map[string]any {
	m := map[string]any{"ideContext": true, "rewind": true, "fork": true, "stats": true}
	if mode := sandbox.SettingsMode(cfg.Sandbox); mode.Sandboxed() {
		be := probe.New(mode, cfg.SandboxNetwork).Backend()
		m["sandbox"] = map[string]any{"mode": string(mode), "engine": string(be.Name), "why": be.Why, "network": cfg.SandboxNetwork}
	}
	return m
}
