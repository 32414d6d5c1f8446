package oauth_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"companion/mcpclient"
	"companion/mcpclient/oauth"
	"companion/mcpclient/oauth/oauthtest"
)

const serverName = "protected"

// authorize runs a flow whose browser step is the test browser, and saves
// the grant.
func authorize(t *testing.T, srv *oauthtest.Server, store *oauth.Store, settings oauth.Settings, metadataURL string) *oauth.Grant {
	t.Helper()
	g, _ := runFlow(t, &oauth.Flow{ServerURL: srv.MCPURL(), Settings: settings, ResourceMetadataURL: metadataURL,
		ClientName: "companion-test"}, store)
	return g
}

// runFlow runs f with a browser that follows each URL it shows, saves the
// grant in store and returns it with how many URLs were shown.
func runFlow(t *testing.T, f *oauth.Flow, store *oauth.Store) (*oauth.Grant, int) {
	t.Helper()
	shown := 0
	f.Show = func(ctx context.Context, u string) {
		shown++
		go func() { _, _ = oauthtest.Browser(ctx, u) }()
	}
	g, err := f.Run(t.Context())
	if err != nil {
		t.Fatalf("Flow.Run: %v", err)
	}
	if err := store.Save(serverName, g); err != nil {
		t.Fatal(err)
	}
	return g, shown
}

// session is an MCP client on the OAuth transport.
type session struct {
	c       *mcpclient.Client
	src     *oauth.Source
	refused atomic.Int32 // 401s the transport could not fix
}

func connect(t *testing.T, srv *oauthtest.Server, store *oauth.Store) (*session, error) {
	t.Helper()
	s := &session{src: oauth.NewSource(store, serverName, srv.MCPURL(), nil, nil)}
	tr := &oauth.Transport{Source: s.src, OnUnauthorized: func() { s.refused.Add(1) }}
	httpTr, err := mcpclient.NewStreamableHTTP(srv.MCPURL(), mcpclient.HTTPOptions{Client: &http.Client{Transport: tr}})
	if err != nil {
		t.Fatal(err)
	}
	s.c = mcpclient.New(httpTr)
	t.Cleanup(func() { _ = s.c.Close() })
	if err := s.c.Start(t.Context()); err != nil {
		return s, err
	}
	_, err = s.c.Initialize(t.Context())
	return s, err
}

// whoami calls the protected tool.
func (s *session) whoami(t *testing.T) error {
	t.Helper()
	res, err := s.c.CallTool(t.Context(), "whoami", nil)
	if err != nil {
		return err
	}
	if res.IsError || len(res.Content) == 0 {
		t.Fatalf("whoami = %+v", res)
	}
	return nil
}

// roundTrip is a function as an http.RoundTripper.
type roundTrip func(*http.Request) (*http.Response, error)

func (f roundTrip) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func newStore(t *testing.T) *oauth.Store {
	return oauth.NewStore(filepath.Join(t.TempDir(), "state", oauth.StoreFile))
}

func TestOAuthFlowAndToolCall(t *testing.T) {
	tests := []struct {
		name          string
		opts          oauthtest.Options
		settings      oauth.Settings
		endpoints     bool // the authorization and token endpoints configured
		registrations int
		scopes        string
	}{
		{"dynamic registration", oauthtest.Options{}, oauth.Settings{}, false, 1, "mcp"},
		{"configured client", oauthtest.Options{NoRegistration: true, ClientID: "mine"}, oauth.Settings{ClientID: "mine"}, false, 0, "mcp"},
		{"configured endpoints", oauthtest.Options{NoRegistration: true, ClientID: "mine"}, oauth.Settings{ClientID: "mine"}, true, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := oauthtest.Start(tt.opts)
			defer srv.Close()
			store := newStore(t)
			if _, err := connect(t, srv, store); !errors.Is(err, mcpclient.ErrUnauthorized) {
				t.Fatalf("before authorization: err = %v, want ErrUnauthorized", err)
			}
			if tt.endpoints {
				tt.settings.AuthorizationURL, tt.settings.TokenURL = srv.URL()+"/authorize", srv.URL()+"/token"
			}
			var discovery atomic.Int32 // metadata requests
			hc := &http.Client{Transport: roundTrip(func(r *http.Request) (*http.Response, error) {
				if strings.HasPrefix(r.URL.Path, "/.well-known/") {
					discovery.Add(1)
				}
				return http.DefaultTransport.RoundTrip(r)
			})}
			g, _ := runFlow(t, &oauth.Flow{HTTP: hc, ServerURL: srv.MCPURL(), Settings: tt.settings, ClientName: "companion-test"}, store)
			if d := discovery.Load(); (d > 0) == tt.endpoints {
				t.Errorf("%d metadata requests with endpoints configured %v", d, tt.endpoints)
			}
			if strings.Join(g.Scopes, " ") != tt.scopes {
				t.Errorf("scopes = %q, want %q", g.Scopes, tt.scopes)
			}
			s, err := connect(t, srv, store)
			if err != nil {
				t.Fatalf("after authorization: %v", err)
			}
			if err := s.whoami(t); err != nil {
				t.Fatal(err)
			}
			c := srv.Counts()
			if c.Registrations != tt.registrations || c.CodeExchanges != 1 || c.ToolCalls != 1 {
				t.Errorf("counts = %+v", c)
			}
			for _, r := range srv.Resources() {
				if r != srv.MCPURL() {
					t.Errorf("resource parameter %q, want %q", r, srv.MCPURL())
				}
			}
			if st := s.src.State(); st != oauth.StateAuthorized {
				t.Errorf("state = %q", st)
			}
			fi, err := os.Stat(store.Path())
			if err != nil || fi.Mode().Perm() != 0o600 {
				t.Errorf("token file mode = %v, %v; want 0600", fi.Mode().Perm(), err)
			}
		})
	}
}

func TestOAuthNoClient(t *testing.T) {
	srv := oauthtest.Start(oauthtest.Options{NoRegistration: true})
	defer srv.Close()
	f := &oauth.Flow{ServerURL: srv.MCPURL(), Show: func(context.Context, string) { t.Error("URL shown without a client") }}
	if _, err := f.Run(t.Context()); !errors.Is(err, oauth.ErrNoClient) {
		t.Fatalf("err = %v, want ErrNoClient", err)
	}
}

func TestOAuthChallengeRecorded(t *testing.T) {
	srv := oauthtest.Start(oauthtest.Options{})
	defer srv.Close()
	s, err := connect(t, srv, newStore(t))
	if !errors.Is(err, mcpclient.ErrUnauthorized) {
		t.Fatalf("err = %v", err)
	}
	if got, want := s.src.MetadataURL(), srv.URL()+"/.well-known/oauth-protected-resource/mcp"; got != want {
		t.Errorf("metadata URL = %q, want %q", got, want)
	}
	if st := s.src.State(); st != oauth.StateNeedsAuth {
		t.Errorf("state = %q, want needs auth", st)
	}
	if s.refused.Load() == 0 {
		t.Error("OnUnauthorized not called")
	}
}

func TestOAuthRefresh(t *testing.T) {
	tests := []struct {
		name     string
		lifetime time.Duration
		expire   bool // the server forgets the access token: a 401
		want401  int
	}{
		// a token expiring within the margin is refreshed before it is sent
		{"before expiry", 30 * time.Second, false, 0},
		{"on 401", time.Hour, true, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := oauthtest.Start(oauthtest.Options{TokenLifetime: tt.lifetime})
			defer srv.Close()
			store := newStore(t)
			g := authorize(t, srv, store, oauth.Settings{}, "")
			if tt.expire {
				srv.ExpireAccessTokens()
			}
			before := srv.Counts().Unauthorized
			s, err := connect(t, srv, store)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.whoami(t); err != nil {
				t.Fatal(err)
			}
			c := srv.Counts()
			if c.Refreshes == 0 || c.Unauthorized-before != tt.want401 || s.refused.Load() != 0 {
				t.Errorf("counts = %+v (401s before %d), refused %d", c, before, s.refused.Load())
			}
			now, _ := store.Load(serverName, srv.MCPURL())
			if now == nil || now.AccessToken == g.AccessToken || now.RefreshToken == g.RefreshToken {
				t.Errorf("stored grant not renewed: %+v", now)
			}
		})
	}
}

func TestOAuthRevokedRefreshReauthorizes(t *testing.T) {
	srv := oauthtest.Start(oauthtest.Options{})
	defer srv.Close()
	store := newStore(t)
	authorize(t, srv, store, oauth.Settings{}, "")
	s, err := connect(t, srv, store)
	if err != nil {
		t.Fatal(err)
	}
	srv.RevokeAll()
	if err := s.whoami(t); !errors.Is(err, mcpclient.ErrUnauthorized) {
		t.Fatalf("call after revocation: err = %v, want ErrUnauthorized", err)
	}
	if srv.Counts().RefusedRefreshes != 1 || s.refused.Load() == 0 || s.src.State() != oauth.StateNeedsAuth {
		t.Fatalf("counts %+v, refused %d, state %q", srv.Counts(), s.refused.Load(), s.src.State())
	}
	authorize(t, srv, store, oauth.Settings{}, s.src.MetadataURL())
	s2, err := connect(t, srv, store)
	if err != nil {
		t.Fatal(err)
	}
	if err := s2.whoami(t); err != nil {
		t.Fatal(err)
	}
	if c := srv.Counts(); c.Authorizations != 2 {
		t.Errorf("authorizations = %d, want 2", c.Authorizations)
	}
}

func TestOAuthWrongStateRejected(t *testing.T) {
	srv := oauthtest.Start(oauthtest.Options{})
	defer srv.Close()
	shown := make(chan string, 1)
	f := &oauth.Flow{ServerURL: srv.MCPURL(), Show: func(_ context.Context, u string) { shown <- u }}
	type result struct {
		g   *oauth.Grant
		err error
	}
	done := make(chan result, 1)
	go func() {
		g, err := f.Run(t.Context())
		done <- result{g, err}
	}()
	loc, err := oauthtest.Redirect(t.Context(), <-shown)
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(loc)
	q := u.Query()
	good := q.Get("state")
	q.Set("state", "forged")
	u.RawQuery = q.Encode()
	if st := get(t, u.String()); st != http.StatusBadRequest {
		t.Errorf("wrong state: HTTP %d, want 400", st)
	}
	if c := srv.Counts(); c.CodeExchanges != 0 {
		t.Fatalf("a code was exchanged after a wrong state: %+v", c)
	}
	q.Set("state", good)
	u.RawQuery = q.Encode()
	if st := get(t, u.String()); st != http.StatusOK {
		t.Errorf("right state: HTTP %d", st)
	}
	r := <-done
	if r.err != nil || r.g.AccessToken == "" {
		t.Fatalf("flow = %+v, %v", r.g, r.err)
	}
}

func get(t *testing.T, u string) int {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

func TestResourceMetadataURL(t *testing.T) {
	tests := []struct{ in, want string }{
		{`Bearer resource_metadata="https://a.example/.well-known/oauth-protected-resource"`, "https://a.example/.well-known/oauth-protected-resource"},
		{`Bearer error="invalid_token", resource_metadata="https://a/x\"y"`, `https://a/x"y`},
		{`Bearer realm="r",resource_metadata=https://b/m, scope="s"`, "https://b/m"},
		{`Bearer realm="not_resource_metadata=x"`, ""},
		{`Bearer realm="r"`, ""},
		{``, ""},
	}
	for _, tt := range tests {
		if got := oauth.ResourceMetadataURL(tt.in); got != tt.want {
			t.Errorf("ResourceMetadataURL(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestDiscoverServerFallbacks runs a flow against an authorization server
// whose metadata is at each of the places discovery must look (RFC 8414,
// OpenID Connect; an issuer with a path): the flow reaches the
// authorization endpoint.
func TestDiscoverServerFallbacks(t *testing.T) {
	tests := []struct {
		name, issuerPath, servedAt string
	}{
		{"RFC 8414", "", "/.well-known/oauth-authorization-server"},
		{"OpenID", "", "/.well-known/openid-configuration"},
		{"RFC 8414 with path", "/tenant", "/.well-known/oauth-authorization-server/tenant"},
		{"OpenID inserted", "/tenant", "/.well-known/openid-configuration/tenant"},
		{"OpenID appended", "/tenant", "/tenant/.well-known/openid-configuration"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var mu sync.Mutex
			var hits []string
			var base string
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				hits = append(hits, r.URL.Path)
				mu.Unlock()
				switch r.URL.Path {
				case "/.well-known/oauth-protected-resource/mcp":
					_, _ = fmt.Fprintf(w, `{"resource":%q,"authorization_servers":[%q]}`, base+"/mcp", base+tt.issuerPath)
				case tt.servedAt:
					_, _ = fmt.Fprintf(w, `{"issuer":%q,"authorization_endpoint":%q,"token_endpoint":%q}`,
						base+tt.issuerPath, base+"/from-metadata/authorize", base+"/token")
				default:
					http.NotFound(w, r)
				}
			}))
			defer ts.Close()
			base = ts.URL
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			var shown string
			f := &oauth.Flow{HTTP: ts.Client(), ServerURL: ts.URL + "/mcp", Settings: oauth.Settings{ClientID: "c"},
				Show: func(_ context.Context, u string) { shown = u; cancel() }}
			if _, err := f.Run(ctx); !errors.Is(err, context.Canceled) {
				t.Fatalf("Run = %v, want the cancellation after the URL was shown", err)
			}
			mu.Lock()
			defer mu.Unlock()
			if !strings.HasPrefix(shown, ts.URL+"/from-metadata/authorize?") {
				t.Fatalf("shown %q (asked %v), want the metadata's authorization endpoint", shown, hits)
			}
		})
	}
}

func TestStoreKeysByServerAndURL(t *testing.T) {
	store := newStore(t)
	g := &oauth.Grant{ServerURL: "https://a/mcp", AccessToken: "t"}
	if err := store.Save("a", g); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, url string
		found     bool
	}{{"a", "https://a/mcp", true}, {"a", "https://evil/mcp", false}, {"b", "https://a/mcp", false}} {
		got, err := store.Load(c.name, c.url)
		if err != nil || (got != nil) != c.found {
			t.Errorf("Load(%s, %s) = %v, %v; found want %v", c.name, c.url, got, err, c.found)
		}
	}
	if ok, err := store.Delete("a"); !ok || err != nil {
		t.Errorf("Delete = %v, %v", ok, err)
	}
	if got, _ := store.Load("a", "https://a/mcp"); got != nil {
		t.Error("grant still there after Delete")
	}
	dir, _ := os.Stat(filepath.Dir(store.Path()))
	if dir.Mode().Perm() != 0o700 {
		t.Errorf("state dir mode = %v", dir.Mode().Perm())
	}
}

func TestTransportSendsTokenOnlyToTheServer(t *testing.T) {
	var mu sync.Mutex
	var got []string
	record := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, r.Header.Get("Authorization"))
	})
	server, other := httptest.NewServer(record), httptest.NewServer(record)
	defer server.Close()
	defer other.Close()
	store := newStore(t)
	if err := store.Save("s", &oauth.Grant{ServerURL: server.URL + "/mcp", AccessToken: "secret"}); err != nil {
		t.Fatal(err)
	}
	hc := &http.Client{Transport: &oauth.Transport{Source: oauth.NewSource(store, "s", server.URL+"/mcp", nil, nil)}}
	for _, u := range []string{server.URL + "/mcp", other.URL + "/mcp"} {
		resp, err := hc.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 2 || got[0] != "Bearer secret" || got[1] != "" {
		t.Errorf("Authorization headers = %q, want the token for the server only", got)
	}
}

func TestFlowRefusesForeignResourceMetadata(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(`{"resource":"https://elsewhere.example/mcp","authorization_servers":["https://as.example"]}`))
	}))
	defer ts.Close()
	f := &oauth.Flow{HTTP: ts.Client(), ServerURL: ts.URL + "/mcp", Show: func(context.Context, string) { t.Error("URL shown") }}
	if _, err := f.Run(t.Context()); err == nil || !strings.Contains(err.Error(), "elsewhere.example") {
		t.Fatalf("err = %v, want a refusal of the foreign resource", err)
	}
}
