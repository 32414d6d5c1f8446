package mcp

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"companion/config"
	"companion/mcpclient/oauth"
	"companion/mcpclient/oauth/oauthtest"
)

// authHarness is a manager with one OAuth-protected server and a test
// browser that answers every authorization URL shown (unless manual).
type authHarness struct {
	m     *Manager
	srv   *oauthtest.Server
	dir   string
	mu    sync.Mutex
	shown []string
}

func startAuthHarness(t *testing.T, manual bool) *authHarness {
	return startAuthHarnessOn(t, manual, TransportHTTP)
}

func startAuthHarnessOn(t *testing.T, manual bool, tr Transport) *authHarness {
	t.Helper()
	h := &authHarness{srv: oauthtest.Start(oauthtest.Options{}), dir: t.TempDir()}
	opts := testOptions(t, nil)
	opts.MaxRestarts = 50
	opts.Auth = NewAuth(AuthOptions{StateDir: h.dir, Manual: manual, ClientName: "companion-test", Log: opts.Log,
		Show: func(ctx context.Context, server, url string) {
			h.mu.Lock()
			h.shown = append(h.shown, server+" "+url)
			h.mu.Unlock()
			go func() { _, _ = oauthtest.Browser(ctx, url) }()
		}})
	u := h.srv.MCPURL()
	if tr == TransportSSE {
		u = h.srv.SSEURL()
	}
	h.m = startManager(t, []ServerConfig{{Name: "remote", URL: u, Transport: tr}}, opts)
	t.Cleanup(h.srv.Close) // before the manager's check for left goroutines
	return h
}

func (h *authHarness) shownCount() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.shown)
}

func TestOAuthServerToolsAppearOnceAuthorised(t *testing.T) {
	for _, tr := range []Transport{TransportHTTP, TransportSSE} {
		t.Run(string(tr), func(t *testing.T) { testOAuthToolsAppear(t, tr) })
	}
}

func testOAuthToolsAppear(t *testing.T, tr Transport) {
	h := startAuthHarnessOn(t, false, tr)
	waitFor(t, "the whoami tool", func() bool { return hasTool(h.m, "mcp_remote_whoami") })
	if res := run(t, h.m, "mcp_remote_whoami", map[string]any{}); res.IsError {
		t.Fatalf("whoami: %+v", res)
	}
	if st := h.m.AuthState("remote"); st != oauth.StateAuthorized {
		t.Errorf("auth state = %q", st)
	}
	if d := h.m.Describe(); !strings.Contains(d, "- Auth: authorised") {
		t.Errorf("Describe lacks the auth state:\n%s", d)
	}
	if n := h.shownCount(); n != 1 || !strings.HasPrefix(h.shown[0], "remote "+h.srv.URL()+"/authorize?") {
		t.Errorf("shown = %v", h.shown)
	}
	fi, err := os.Stat(filepath.Join(h.dir, oauth.StoreFile))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("grants file: %v, %v; want mode 0600", fi, err)
	}
}

func TestOAuthRevokedGrantAuthorisesAgain(t *testing.T) {
	h := startAuthHarness(t, false)
	waitFor(t, "the whoami tool", func() bool { return hasTool(h.m, "mcp_remote_whoami") })
	h.srv.RevokeAll()
	if res := run(t, h.m, "mcp_remote_whoami", map[string]any{}); !res.IsError {
		t.Fatalf("whoami after revocation succeeded: %+v", res)
	}
	waitFor(t, "a second authorization", func() bool { return h.srv.Counts().CodeExchanges == 2 })
	waitFor(t, "the server ready again", stateIs(h.m, "remote", StateReady))
	if res := run(t, h.m, "mcp_remote_whoami", map[string]any{}); res.IsError {
		t.Fatalf("whoami after re-authorization: %+v", res)
	}
	if c := h.srv.Counts(); c.RefusedRefreshes == 0 {
		t.Errorf("no refresh was tried: %+v", c)
	}
}

func TestOAuthManualWaitsForAuthorize(t *testing.T) {
	h := startAuthHarness(t, true)
	waitFor(t, "needs auth", func() bool { return h.m.AuthState("remote") == oauth.StateNeedsAuth })
	if d := h.m.Describe(); !strings.Contains(d, "- Auth: needs auth (`/mcp auth remote`)") {
		t.Errorf("Describe:\n%s", d)
	}
	if h.shownCount() != 0 || h.srv.Counts().Authorizations != 0 {
		t.Fatal("authorization started before /mcp auth")
	}
	out, err := h.m.Authorize(t.Context(), "remote")
	if err != nil || !strings.Contains(out, h.srv.URL()+"/authorize?") {
		t.Fatalf("Authorize = %q, %v", out, err)
	}
	waitFor(t, "the whoami tool", func() bool { return hasTool(h.m, "mcp_remote_whoami") })
	out, err = h.m.Authorize(t.Context(), "remote")
	if err != nil || !strings.Contains(out, "already authorised") {
		t.Errorf("Authorize again = %q, %v", out, err)
	}
}

func TestOAuthEnabled(t *testing.T) {
	off := false
	tests := []struct {
		name string
		cfg  ServerConfig
		want bool
	}{
		{"http", ServerConfig{URL: "https://x", Transport: TransportHTTP}, true},
		{"sse", ServerConfig{URL: "https://x", Transport: TransportSSE}, true},
		{"stdio", ServerConfig{Command: "x"}, false},
		{"own header", ServerConfig{URL: "https://x", Headers: map[string]string{"authorization": "Bearer k"}}, false},
		{"disabled", ServerConfig{URL: "https://x", OAuth: &config.MCPOAuth{Enabled: &off}}, false},
	}
	for _, tt := range tests {
		if got := OAuthEnabled(&tt.cfg); got != tt.want {
			t.Errorf("%s: OAuthEnabled = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestParseServersOAuthBlock(t *testing.T) {
	raw := `{"gh":{"httpUrl":"https://mcp.example/mcp","oauth":{"enabled":true,"clientId":"id","clientSecret":"s",
		"authorizationUrl":"https://as/authorize","tokenUrl":"https://as/token","scopes":["a","b"],
		"redirectUri":"http://127.0.0.1:7777/cb"}}}`
	servers, err := ParseServers([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	got := OAuthSettings(&servers[0])
	want := oauth.Settings{ClientID: "id", ClientSecret: "s", AuthorizationURL: "https://as/authorize",
		TokenURL: "https://as/token", Scopes: []string{"a", "b"}, RedirectURI: "http://127.0.0.1:7777/cb"}
	if got.ClientID != want.ClientID || got.ClientSecret != want.ClientSecret || got.AuthorizationURL != want.AuthorizationURL ||
		got.TokenURL != want.TokenURL || strings.Join(got.Scopes, ",") != "a,b" || got.RedirectURI != want.RedirectURI {
		t.Errorf("settings = %+v, want %+v", got, want)
	}
}
