package oauth

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
)

// refreshMargin is how long before its expiry a token is refreshed.
const refreshMargin = time.Minute

// Source is one server's grant as the Transport uses it: loaded from the
// store, refreshed and saved back. It is safe for concurrent use.
type Source struct {
	store     *Store
	name      string
	serverURL string
	hc        *http.Client
	log       *slog.Logger

	mu sync.Mutex
	// challenged is set once the server answered 401 without a usable
	// grant; metadataURL is its challenge's resource_metadata.
	challenged  bool
	metadataURL string
	// tokens and h (made for the client hKey names) refresh the grant.
	tokens *lockedTokens
	h      *transport.OAuthHandler
	hKey   string
}

// NewSource returns the grant source of server name at serverURL. hc
// makes refresh requests (nil: http.DefaultClient); log may be nil.
func NewSource(store *Store, name, serverURL string, hc *http.Client, log *slog.Logger) *Source {
	if hc == nil {
		hc = http.DefaultClient
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Source{store: store, name: name, serverURL: serverURL, hc: hc, log: log,
		tokens: &lockedTokens{name: name, serverURL: serverURL}}
}

// Token returns the access token to send ("" when there is none),
// refreshing it first when it expires within a minute.
func (s *Source) Token(ctx context.Context) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	g, err := s.store.Load(s.name, s.serverURL)
	if err != nil || g == nil {
		return ""
	}
	if g.expiresWithin(refreshMargin, time.Now()) && g.RefreshToken != "" {
		fresh := func(g *Grant) bool { return !g.expiresWithin(refreshMargin, time.Now()) }
		if n, err := s.refresh(ctx, fresh); err == nil {
			return n.AccessToken
		}
	}
	return g.AccessToken
}

// renew is called on a 401 to a request that carried used: it returns a
// token worth retrying with, or "" when there is none (the user must
// authorize).
func (s *Source) renew(ctx context.Context, used, challenge string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.metadataURL = ResourceMetadataURL(challenge)
	// renewed meanwhile: by another request, or another process
	fresh := func(g *Grant) bool { return g.AccessToken != used }
	g, err := s.store.Load(s.name, s.serverURL)
	switch {
	case err != nil || g == nil: // nothing to renew: no lock taken
	case fresh(g):
		return g.AccessToken
	case g.RefreshToken != "":
		if n, err := s.refresh(ctx, fresh); err == nil && n.AccessToken != "" {
			return n.AccessToken
		}
	}
	s.challenged = true
	return ""
}

// errNoGrant is why refresh found nothing to refresh.
var errNoGrant = errors.New("no grant")

// refresh renews the stored grant with the store locked, so that one
// process refreshes and the others use its result: after taking the lock
// it reads the grant again, and a grant fresh says is already renewed is
// returned as it is. A refused refresh token is dropped from the store,
// keeping the client.
func (s *Source) refresh(ctx context.Context, fresh func(*Grant) bool) (*Grant, error) {
	var out *Grant
	err := s.store.update(ctx, func(f *storeFile) (bool, error) {
		g := f.grant(s.name, s.serverURL)
		switch {
		case g == nil:
			return false, errNoGrant
		case fresh(g):
			out = g
			return false, nil
		case g.RefreshToken == "":
			return false, fmt.Errorf("%w: there is none", ErrRefreshRejected)
		}
		n, err := s.refreshWith(ctx, f, g)
		if err != nil {
			s.log.Warn("mcp oauth: refresh failed", "server", s.name, "err", err)
		}
		if errors.Is(err, ErrRefreshRejected) {
			stale := *g
			stale.RefreshToken, stale.Expiry = "", time.Unix(1, 0)
			f.Servers[s.name] = &stale
			return true, err
		}
		if err != nil {
			return false, err
		}
		out = n
		return true, nil
	})
	if out == nil {
		return nil, err // every path that sets no grant gives an error
	}
	if err != nil {
		// refreshed, but not saved: usable in this process only
		s.log.Warn("mcp oauth: saving the refreshed token failed", "server", s.name, "err", err)
	}
	s.challenged = false
	return out, nil
}

// State is the server's authorization state now.
func (s *Source) State() State {
	s.mu.Lock()
	challenged := s.challenged
	s.mu.Unlock()
	g, _ := s.store.Load(s.name, s.serverURL)
	st := GrantState(g, time.Now())
	if challenged && st != StateAuthorized {
		return StateNeedsAuth
	}
	return st
}

// MetadataURL is the resource_metadata of the server's last challenge.
func (s *Source) MetadataURL() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.metadataURL
}

// Authorized records that a new grant was saved.
func (s *Source) Authorized() {
	s.mu.Lock()
	s.challenged = false
	s.mu.Unlock()
}

// Transport adds a server's bearer token to each request; on a 401 it
// renews the token (refresh, or a newer grant in the store) and retries
// the request once. A 401 it cannot fix is returned as it came, for the
// caller to authorize.
type Transport struct {
	// Base sends the requests (nil: http.DefaultTransport).
	Base   http.RoundTripper
	Source *Source
	// OnUnauthorized, when set, is called after a 401 that renewing could
	// not fix.
	OnUnauthorized func()
}

// RoundTrip implements http.RoundTripper. The token goes only to the
// server's own origin: a redirect elsewhere is sent without it.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if !sameOrigin(req.URL, t.Source.serverURL) {
		return t.send(req, "", false)
	}
	tok := t.Source.Token(req.Context())
	resp, err := t.send(req, tok, false)
	if err != nil || resp.StatusCode != http.StatusUnauthorized {
		return resp, err
	}
	if req.Body != nil && req.Body != http.NoBody && req.GetBody == nil {
		return resp, nil // cannot send the body again
	}
	fresh := t.Source.renew(req.Context(), tok, resp.Header.Get("WWW-Authenticate"))
	if fresh == "" {
		if t.OnUnauthorized != nil {
			t.OnUnauthorized()
		}
		return resp, nil
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4096))
	resp.Body.Close()
	resp, err = t.send(req, fresh, true)
	if err == nil && resp.StatusCode == http.StatusUnauthorized && t.OnUnauthorized != nil {
		t.OnUnauthorized()
	}
	return resp, err
}

// sameOrigin reports whether u has the scheme and host of serverURL.
func sameOrigin(u *url.URL, serverURL string) bool {
	s, err := url.Parse(serverURL)
	return err == nil && strings.EqualFold(u.Scheme, s.Scheme) && strings.EqualFold(u.Host, s.Host)
}

// send sends a copy of req with tok; again is set for the retry, which
// sends the body anew.
func (t *Transport) send(req *http.Request, tok string, again bool) (*http.Response, error) {
	base := t.Base
	if base == nil {
		base = http.DefaultTransport
	}
	r := req.Clone(req.Context())
	if again && req.GetBody != nil && req.Body != nil && req.Body != http.NoBody {
		body, err := req.GetBody()
		if err != nil {
			return nil, err
		}
		r.Body = body
	}
	if tok != "" {
		r.Header.Set("Authorization", "Bearer "+tok)
	}
	return base.RoundTrip(r)
}
