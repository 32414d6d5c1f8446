package mcp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"

	"companion/mcpclient"
	"companion/mcpclient/oauth"
)

// ErrNeedsAuth is why a connection ends when the server answers 401 and
// no grant can fix it: the user must authorize companion.
var ErrNeedsAuth = errors.New("the server needs authorization")

// AuthState is a server's authorization state, as /mcp shows it.
type AuthState = oauth.State

// AuthOptions configure OAuth for a session's remote servers.
type AuthOptions struct {
	// StateDir holds the grants file (oauth.StoreFile, mode 0600).
	StateDir string
	// Show tells the user where to authorise server, once per
	// authorization: a notice, an elicitation, a line on stderr. It must
	// not block.
	Show func(ctx context.Context, server, url string)
	// Open opens a browser on the authorization URL (nil: none).
	Open func(ctx context.Context, url string) error
	// Manual waits for Authorize (/mcp auth NAME) before an authorization
	// starts; otherwise one starts at a server's first 401.
	Manual bool
	// HTTP makes discovery, registration and token requests (nil:
	// http.DefaultClient).
	HTTP *http.Client
	// ClientName is what dynamic registration calls companion.
	ClientName string
	// Log receives what goes wrong on the side (nil: discarded).
	Log *slog.Logger
}

// Auth authorizes a session's HTTP and SSE servers with OAuth: it gives
// their transports the bearer token, and runs the authorization when a
// server asks for it. Its methods are safe for concurrent use, and on a
// nil *Auth (OAuth off).
type Auth struct {
	o     AuthOptions
	store *oauth.Store

	mu      sync.Mutex
	sources map[string]*oauth.Source
	waiting map[string]*pendingAuth
}

// pendingAuth is a server waiting for the user to authorise companion.
type pendingAuth struct {
	start     chan struct{} // closed to start the flow (Manual)
	startOnce sync.Once
	shown     chan struct{} // closed once url is set
	shownOnce sync.Once
	url       string
}

// NewAuth returns the OAuth support of a session; nil when o has no
// StateDir.
func NewAuth(o AuthOptions) *Auth {
	if o.StateDir == "" {
		return nil
	}
	return &Auth{o: o, store: oauth.NewStore(oauth.StorePath(o.StateDir)),
		sources: map[string]*oauth.Source{}, waiting: map[string]*pendingAuth{}}
}

// OAuthEnabled reports whether cfg may use OAuth: an HTTP or SSE server
// without an Authorization header of its own, whose oauth block (if any)
// does not say enabled: false.
func OAuthEnabled(cfg *ServerConfig) bool {
	if t := cfg.transport(); t != TransportHTTP && t != TransportSSE {
		return false
	}
	if cfg.OAuth != nil && cfg.OAuth.Enabled != nil && !*cfg.OAuth.Enabled {
		return false
	}
	for k := range cfg.Headers {
		if strings.EqualFold(k, "Authorization") {
			return false
		}
	}
	return true
}

// OAuthSettings are cfg's configured OAuth details.
func OAuthSettings(cfg *ServerConfig) oauth.Settings {
	o := cfg.OAuth
	if o == nil {
		return oauth.Settings{}
	}
	return oauth.Settings{ClientID: o.ClientID, ClientSecret: o.ClientSecret, AuthorizationURL: o.AuthorizationURL,
		TokenURL: o.TokenURL, Scopes: o.Scopes, RedirectURI: o.RedirectURI}
}

// applies reports whether a handles cfg's authorization.
func (a *Auth) applies(cfg *ServerConfig) bool { return a != nil && OAuthEnabled(cfg) }

// source is the grant source of cfg's server.
func (a *Auth) source(cfg *ServerConfig) *oauth.Source {
	a.mu.Lock()
	defer a.mu.Unlock()
	s := a.sources[cfg.Name]
	if s == nil {
		s = oauth.NewSource(a.store, cfg.Name, cfg.URL, a.o.HTTP, a.o.Log)
		a.sources[cfg.Name] = s
	}
	return s
}

// wrap returns base with cfg's bearer token added, when OAuth applies;
// lost is called when the server answers 401 and no grant fixes it.
func (a *Auth) wrap(cfg *ServerConfig, base http.RoundTripper, lost func(error)) http.RoundTripper {
	if !a.applies(cfg) {
		return base
	}
	return &oauth.Transport{Base: base, Source: a.source(cfg),
		OnUnauthorized: func() { lost(fmt.Errorf("%w: %w", ErrNeedsAuth, mcpclient.ErrUnauthorized)) }}
}

// state is cfg's server's authorization state.
func (a *Auth) state(cfg *ServerConfig) AuthState {
	if !a.applies(cfg) {
		return oauth.StateNone
	}
	return a.source(cfg).State()
}

// OpenBrowser returns an AuthOptions.Open that opens URLs with the
// command COMPANION_OAUTH_BROWSER names ("none": nothing), else the
// platform's opener.
func OpenBrowser(getenv func(string) string) func(context.Context, string) error {
	return func(ctx context.Context, url string) error { return oauth.OpenBrowser(ctx, url, getenv) }
}
