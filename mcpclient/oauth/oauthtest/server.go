package oauthtest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Options shape the server.
type Options struct {
	// NoRegistration hides the registration endpoint: clients must be
	// configured with ClientID.
	NoRegistration bool
	// ClientID is a preconfigured public client (default "preset").
	ClientID string
	// TokenLifetime is the access tokens' expires_in (default one hour).
	TokenLifetime time.Duration
}

// Counts are what the server has seen.
type Counts struct {
	Registrations, Authorizations, CodeExchanges, Refreshes, RefusedRefreshes, Unauthorized, ToolCalls int
}

// Server is the authorization server and the protected MCP server.
type Server struct {
	srv  *httptest.Server
	opts Options

	mu       sync.Mutex
	clients  map[string][]string // client id → redirect URIs
	codes    map[string]codeGrant
	access   map[string]bool // valid access tokens
	refresh  map[string]bool // valid refresh tokens
	counts   Counts
	resource []string // resource parameters seen, in order
	// redirects are the redirect_uri parameters of authorization
	// requests, in order.
	redirects []string
	// forgotten are the clients ForgetClients dropped (with their
	// redirect URIs), refused as refusal says.
	forgotten map[string][]string
	refusal   Refusal
}

// codeGrant is an issued authorization code.
type codeGrant struct {
	clientID, redirectURI, challenge, resource string
}

// Start starts the server; Close stops it.
func Start(opts Options) *Server {
	if opts.ClientID == "" {
		opts.ClientID = "preset"
	}
	if opts.TokenLifetime == 0 {
		opts.TokenLifetime = time.Hour
	}
	s := &Server{opts: opts, clients: map[string][]string{opts.ClientID: nil}, codes: map[string]codeGrant{},
		access: map[string]bool{}, refresh: map[string]bool{},
		forgotten: map[string][]string{}}
	mux := http.NewServeMux()
	s.srv = httptest.NewUnstartedServer(mux)
	base := "http://" + s.srv.Listener.Addr().String()
	mux.HandleFunc("GET /.well-known/oauth-protected-resource/mcp", s.resourceMetadata("/mcp"))
	mux.HandleFunc("GET /.well-known/oauth-protected-resource/sse", s.resourceMetadata("/sse"))
	mux.HandleFunc("GET /.well-known/oauth-authorization-server", s.serverMetadata)
	mux.HandleFunc("POST /register", s.register)
	mux.HandleFunc("GET /authorize", s.authorize)
	mux.HandleFunc("POST /token", s.token)
	mcpSrv := newMCP(s)
	mux.Handle("/mcp", s.protect(server.NewStreamableHTTPServer(mcpSrv), "/mcp"))
	sse := server.NewSSEServer(mcpSrv, server.WithBaseURL(base))
	mux.Handle("/sse", s.protect(sse, "/sse"))
	mux.Handle("/message", s.protect(sse, "/sse"))
	s.srv.Start()
	return s
}

// SSEURL is the protected MCP server's legacy SSE endpoint (its own
// protected resource).
func (s *Server) SSEURL() string { return s.srv.URL + "/sse" }

// isResource reports whether r names one of the protected resources.
func (s *Server) isResource(r string) bool { return r == s.MCPURL() || r == s.SSEURL() }

// URL is the authorization server's issuer (the server's root).
func (s *Server) URL() string { return s.srv.URL }

// MCPURL is the protected MCP server's streamable HTTP endpoint.
func (s *Server) MCPURL() string { return s.srv.URL + "/mcp" }

// Close stops the server, ending the streams still open.
func (s *Server) Close() {
	s.srv.CloseClientConnections()
	s.srv.Close()
}

// Counts returns what the server has seen so far.
func (s *Server) Counts() Counts {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.counts
}

// Resources are the resource parameters of every authorize, token and
// refresh request, in order.
func (s *Server) Resources() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.resource...)
}

// RedirectURIs are the redirect_uri parameters of every authorization
// request, in order.
func (s *Server) RedirectURIs() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.redirects...)
}

// Refusal is how the server refuses a client ForgetClients dropped.
type Refusal int

// Refusals.
const (
	// RefuseInRedirect redirects from the authorization endpoint to the
	// client's loopback redirect URI with error=invalid_client.
	RefuseInRedirect Refusal = iota
	// RefuseAtToken approves at the authorization endpoint and answers
	// invalid_client at the token endpoint.
	RefuseAtToken
	// RefuseOnPage answers the authorization request with an error page
	// of its own and no redirect, as RFC 6749 §4.1.2.1 asks for an
	// unknown client.
	RefuseOnPage
)

// ForgetClients drops every dynamically registered client, as an
// authorization server does whose registrations expired, and refuses
// them as how says.
func (s *Server) ForgetClients(how Refusal) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.refusal = how
	for id, uris := range s.clients {
		if id != s.opts.ClientID {
			s.forgotten[id] = uris
			delete(s.clients, id)
		}
	}
}

// AccessTokenValid reports whether tok is a valid access token now.
func (s *Server) AccessTokenValid(tok string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.access[tok]
}

// ExpireAccessTokens makes every access token issued so far invalid.
func (s *Server) ExpireAccessTokens() {
	s.mu.Lock()
	defer s.mu.Unlock()
	clear(s.access)
}

// RevokeAll makes every access and refresh token issued so far invalid.
func (s *Server) RevokeAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	clear(s.access)
	clear(s.refresh)
}

// newMCP is the protected MCP server: one tool, whoami.
func newMCP(s *Server) *server.MCPServer {
	m := server.NewMCPServer("protected", "1.0", server.WithToolCapabilities(true))
	m.AddTool(mcp.NewTool("whoami", mcp.WithDescription("Says who you are.")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			s.mu.Lock()
			s.counts.ToolCalls++
			s.mu.Unlock()
			return mcp.NewToolResultText("you are authorised"), nil
		})
	return m
}

// protect answers 401 with a challenge naming the metadata of the
// resource at path to requests without a valid token.
func (s *Server) protect(next http.Handler, path string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		s.mu.Lock()
		valid := ok && s.access[tok]
		if !valid {
			s.counts.Unauthorized++
		}
		s.mu.Unlock()
		if !valid {
			w.Header().Set("WWW-Authenticate",
				fmt.Sprintf(`Bearer error="invalid_token", resource_metadata="%s/.well-known/oauth-protected-resource%s"`, s.srv.URL, path))
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func (s *Server) resourceMetadata(path string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, map[string]any{"resource": s.srv.URL + path, "authorization_servers": []string{s.srv.URL},
			"scopes_supported": []string{"mcp"}})
	}
}

func (s *Server) serverMetadata(w http.ResponseWriter, _ *http.Request) {
	m := map[string]any{"issuer": s.srv.URL, "authorization_endpoint": s.srv.URL + "/authorize",
		"token_endpoint": s.srv.URL + "/token", "code_challenge_methods_supported": []string{"S256"},
		"response_types_supported": []string{"code"}}
	if !s.opts.NoRegistration {
		m["registration_endpoint"] = s.srv.URL + "/register"
	}
	writeJSON(w, http.StatusOK, m)
}

func (s *Server) register(w http.ResponseWriter, r *http.Request) {
	if s.opts.NoRegistration {
		http.NotFound(w, r)
		return
	}
	var req struct {
		RedirectURIs []string `json:"redirect_uris"`
	}
	if json.NewDecoder(r.Body).Decode(&req) != nil || len(req.RedirectURIs) == 0 {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_client_metadata"})
		return
	}
	id := "client-" + random()
	s.mu.Lock()
	s.clients[id] = req.RedirectURIs
	s.counts.Registrations++
	s.mu.Unlock()
	writeJSON(w, http.StatusCreated, map[string]any{"client_id": id, "redirect_uris": req.RedirectURIs})
}
