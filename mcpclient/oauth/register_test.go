package oauth_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/url"
	"os"
	"testing"

	"companion/mcpclient/oauth"
	"companion/mcpclient/oauth/oauthtest"
)

// authorizeKept runs a flow that keeps its registration in store, saves
// the grant and returns it with the URLs shown.
func authorizeKept(t *testing.T, srv *oauthtest.Server, store *oauth.Store) (*oauth.Grant, int) {
	t.Helper()
	return runFlow(t, &oauth.Flow{ServerURL: srv.MCPURL(), ClientName: "companion-test", Store: store}, store)
}

// kept is the one registration in store.
func kept(t *testing.T, store *oauth.Store) oauth.Registration {
	t.Helper()
	regs, err := store.Registrations()
	if err != nil || len(regs) != 1 {
		t.Fatalf("registrations = %+v, %v; want one", regs, err)
	}
	return regs[0]
}

func TestOAuthRegistrationKept(t *testing.T) {
	tests := []struct {
		name string
		// between happens between the two authorizations; it returns a
		// clean-up.
		between           func(t *testing.T, srv *oauthtest.Server, first oauth.Registration) func()
		registrations     int  // at the server, both authorizations together
		sameClient        bool // the second authorization used the first's client
		samePort          bool // … and its redirect URI
		shown             int  // authorization URLs shown the second time
		authorizeRequests int  // at the server, both authorizations together
	}{
		{"reused", nil, 1, true, true, 1, 2},
		{"refused at the authorization endpoint", func(_ *testing.T, srv *oauthtest.Server, _ oauth.Registration) func() {
			srv.ForgetClients(oauthtest.RefuseInRedirect)
			return func() {}
		}, 2, false, true, 2, 3},
		{"refused at the token endpoint", func(_ *testing.T, srv *oauthtest.Server, _ oauth.Registration) func() {
			srv.ForgetClients(oauthtest.RefuseAtToken)
			return func() {}
		}, 2, false, true, 2, 3},
		{"port taken", func(t *testing.T, _ *oauthtest.Server, first oauth.Registration) func() {
			u, err := url.Parse(first.RedirectURI)
			if err != nil {
				t.Fatal(err)
			}
			ln, err := net.Listen("tcp", u.Host)
			if err != nil {
				t.Fatalf("taking the registered port: %v", err)
			}
			return func() { ln.Close() }
		}, 2, false, false, 1, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := oauthtest.Start(oauthtest.Options{})
			defer srv.Close()
			store := newStore(t)
			g1, _ := authorizeKept(t, srv, store)
			first := kept(t, store)
			if first.ClientID != g1.ClientID {
				t.Fatalf("kept client %q, the grant's %q", first.ClientID, g1.ClientID)
			}
			if tt.between != nil {
				defer tt.between(t, srv, first)()
			}
			g2, shown := authorizeKept(t, srv, store)
			c := srv.Counts()
			if c.Registrations != tt.registrations || shown != tt.shown {
				t.Errorf("registrations %d, URLs shown %d; want %d, %d", c.Registrations, shown, tt.registrations, tt.shown)
			}
			if (g2.ClientID == g1.ClientID) != tt.sameClient {
				t.Errorf("second client %q, first %q; same want %v", g2.ClientID, g1.ClientID, tt.sameClient)
			}
			redirects := srv.RedirectURIs()
			if len(redirects) != tt.authorizeRequests {
				t.Fatalf("authorization requests' redirect URIs = %q, want %d", redirects, tt.authorizeRequests)
			}
			last := redirects[len(redirects)-1]
			if (last == redirects[0]) != tt.samePort {
				t.Errorf("redirect URIs %q; the last one the first's: want %v", redirects, tt.samePort)
			}
			now := kept(t, store)
			if now.ClientID != g2.ClientID || now.RedirectURI != last {
				t.Errorf("kept %+v after the second authorization (client %q, redirect %q)", now, g2.ClientID, last)
			}
			if !srv.AccessTokenValid(g2.AccessToken) {
				t.Error("the second authorization's token is not valid")
			}
			for _, p := range []string{store.Path(), store.Path() + ".lock"} {
				if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o600 {
					t.Errorf("%s: %v, %v; want mode 0600", p, fi, err)
				}
			}
		})
	}
}

func TestOAuthRegistrationKeyedBySettings(t *testing.T) {
	srv := oauthtest.Start(oauthtest.Options{})
	defer srv.Close()
	store := newStore(t)
	authorizeKept(t, srv, store)
	// another client name is another configuration: another registration
	runFlow(t, &oauth.Flow{ServerURL: srv.MCPURL(), ClientName: "other", Store: store}, store)
	regs, err := store.Registrations()
	if err != nil || len(regs) != 2 || srv.Counts().Registrations != 2 {
		t.Fatalf("registrations kept %+v (%v), at the server %d; want 2", regs, err, srv.Counts().Registrations)
	}
}

func TestOAuthKeptClientUnansweredIsForgotten(t *testing.T) {
	srv := oauthtest.Start(oauthtest.Options{})
	defer srv.Close()
	store := newStore(t)
	authorizeKept(t, srv, store)
	srv.ForgetClients(oauthtest.RefuseOnPage)
	// the browser shows the server's error page; the user gives up
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	page := make(chan int, 1)
	f := &oauth.Flow{ServerURL: srv.MCPURL(), ClientName: "companion-test", Store: store,
		Show: func(ctx context.Context, u string) {
			go func() {
				st, _ := oauthtest.Browser(ctx, u)
				page <- st
				cancel()
			}()
		}}
	if _, err := f.Run(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("flow with a refused client: err = %v, want context.Canceled", err)
	}
	if st := <-page; st != http.StatusBadRequest {
		t.Fatalf("the server's page: HTTP %d, want 400", st)
	}
	if regs, err := store.Registrations(); err != nil || len(regs) != 0 {
		t.Fatalf("registrations kept after an unanswered flow: %+v, %v", regs, err)
	}
	g, _ := authorizeKept(t, srv, store)
	if c := srv.Counts(); c.Registrations != 2 || !srv.AccessTokenValid(g.AccessToken) {
		t.Errorf("registrations %d, want 2 and a valid token", c.Registrations)
	}
}

// TestOAuthNewClientUnansweredIsKept: a kept client the authorization
// server refuses is replaced by a new registration; when the user then
// gives up, the new client (never refused) stays kept for next time.
func TestOAuthNewClientUnansweredIsKept(t *testing.T) {
	srv := oauthtest.Start(oauthtest.Options{})
	defer srv.Close()
	store := newStore(t)
	g1, _ := authorizeKept(t, srv, store)
	srv.ForgetClients(oauthtest.RefuseInRedirect)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	shown := 0
	f := &oauth.Flow{ServerURL: srv.MCPURL(), ClientName: "companion-test", Store: store,
		Show: func(ctx context.Context, u string) {
			if shown++; shown == 1 {
				go func() { _, _ = oauthtest.Browser(ctx, u) }() // the kept client is refused
				return
			}
			cancel() // the user gives up on the new client's page
		}}
	if _, err := f.Run(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if now := kept(t, store); now.ClientID == g1.ClientID || srv.Counts().Registrations != 2 {
		t.Errorf("kept %+v after %d registrations; want the second client", now, srv.Counts().Registrations)
	}
}
