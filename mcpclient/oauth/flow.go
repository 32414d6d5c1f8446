package oauth

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"golang.org/x/oauth2"
)

// ErrNoClient means the authorization server offers no registration and
// no client id is configured for the server.
var ErrNoClient = errors.New("the authorization server offers no client registration; configure oauth.clientId for this server")

// Settings are a server's configured OAuth details (Gemini CLI's oauth
// block); empty fields are discovered.
type Settings struct {
	ClientID, ClientSecret string
	// AuthorizationURL and TokenURL, when both set, skip discovery.
	AuthorizationURL, TokenURL string
	Scopes                     []string
	// RedirectURI fixes the loopback redirect (its port and path); empty:
	// http://127.0.0.1:<random port>/oauth/callback.
	RedirectURI string
}

// Flow is one interactive authorization of companion with an MCP server.
type Flow struct {
	// HTTP makes discovery, registration and token requests (nil:
	// http.DefaultClient).
	HTTP *http.Client
	// ServerURL is the MCP server's URL, the protected resource.
	ServerURL string
	Settings  Settings
	// ResourceMetadataURL is the resource_metadata of the server's 401
	// challenge, "" when unknown.
	ResourceMetadataURL string
	// ClientName is what dynamic registration calls companion.
	ClientName string
	// Show receives the authorization URL once the loopback listens: it
	// tells the user and may open a browser. It must not block; its
	// context ends with the flow. It is called again if a kept client is
	// refused and companion registers anew.
	Show func(ctx context.Context, authURL string)
	// Store, when set, keeps the clients dynamic registration makes, so
	// that later authorizations with the same authorization server and
	// settings reuse the client and its redirect URI (its loopback port)
	// instead of registering again. nil: every authorization registers.
	Store *Store
}

// endpoints is what discovery found.
type endpoints struct {
	authURL, tokenURL, registration string
	resource                        string
	scopes                          []string
}

// Run authorizes: discovery, registration when needed (or the client
// Store kept from an earlier registration), the browser's round trip to
// the loopback redirect, and the code exchange. A kept client the
// authorization server refuses (invalid_client) is forgotten and
// registered anew, once. It returns when the user answered or ctx ended.
func (f *Flow) Run(ctx context.Context) (*Grant, error) {
	// Show's context ends with the flow (a question to the user is
	// withdrawn).
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	hc := f.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	ep, err := f.discover(ctx, hc)
	if err != nil {
		return nil, err
	}
	key := f.registrationKey(ep)
	client, lb, kept, err := f.client(ctx, hc, ep, key)
	if err != nil {
		return nil, err
	}
	defer lb.close()
	tok, err := f.authorize(ctx, hc, f.config(ep, client, lb), lb, ep.resource)
	if err != nil && kept && clientRejected(err) {
		_ = f.Store.dropRegistration(ctx, key, client.ID) // registering again replaces it anyway
		if client, err = f.register(ctx, hc, key, lb); err != nil {
			return nil, err
		}
		kept = false // the new client was never refused: an unanswered flow keeps it
		tok, err = f.authorize(ctx, hc, f.config(ep, client, lb), lb, ep.resource)
	}
	if err != nil && kept && ctx.Err() != nil {
		f.forgetUnanswered(ctx, key, client)
	}
	if err != nil {
		return nil, err
	}
	return &Grant{ServerURL: f.ServerURL, Resource: ep.resource, ClientID: client.ID, ClientSecret: client.Secret,
		TokenURL: ep.tokenURL, Scopes: ep.scopes, AccessToken: tok.AccessToken, RefreshToken: tok.RefreshToken,
		TokenType: tok.TokenType, Expiry: tok.Expiry}, nil
}

// client is the client to authorize with and the loopback listening for
// its redirect: the configured client; else the client Store kept for
// this authorization server and configuration, listening on its
// registered redirect URI (kept is set); else, and when that port is
// taken, a new registration on a new port, which Store keeps under key.
func (f *Flow) client(ctx context.Context, hc *http.Client, ep endpoints, key RegistrationKey) (c Client, lb *loopback, kept bool, err error) {
	if f.Settings.ClientID != "" {
		lb, err = listenLoopback(f.Settings.RedirectURI)
		return Client{ID: f.Settings.ClientID, Secret: f.Settings.ClientSecret}, lb, false, err
	}
	if ep.registration == "" {
		return Client{}, nil, false, ErrNoClient
	}
	if f.Store != nil {
		if r, err := f.Store.registration(key); err == nil && r != nil {
			if lb, err := listenLoopback(r.RedirectURI); err == nil {
				return r.client(), lb, true, nil
			}
			// its port is taken: a new port needs a new registration (an
			// authorization server may allow any loopback port, RFC 8252
			// §7.3, but nothing says this one does)
		}
	}
	if lb, err = listenLoopback(f.Settings.RedirectURI); err != nil {
		return Client{}, nil, false, err
	}
	if c, err = f.register(ctx, hc, key, lb); err != nil {
		lb.close()
		return Client{}, nil, false, err
	}
	return c, lb, false, nil
}

// register registers companion with key's endpoint for lb's redirect URI
// and keeps the client in Store.
func (f *Flow) register(ctx context.Context, hc *http.Client, key RegistrationKey, lb *loopback) (Client, error) {
	c, err := Register(ctx, hc, key.Endpoint, key.ClientName, lb.redirectURI, key.Scopes)
	if err != nil {
		return Client{}, err
	}
	if f.Store != nil {
		// not kept: the authorization goes on, and the next one registers again
		_ = f.Store.putRegistration(ctx, &Registration{RegistrationKey: key, ClientID: c.ID, ClientSecret: c.Secret,
			RedirectURI: lb.redirectURI})
	}
	return c, nil
}

// forgetUnanswered forgets the kept client after a flow that ended
// without an answer at the loopback: the authorization server may have
// refused the client on a page of its own (RFC 6749 §4.1.2.1 sends an
// unknown client's error to the user, not to the redirect URI), and
// keeping it would fail every later authorization alike. If the user
// merely gave up, the next authorization registers once more.
func (f *Flow) forgetUnanswered(ctx context.Context, key RegistrationKey, client Client) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), lockWait)
	defer cancel()
	_ = f.Store.dropRegistration(ctx, key, client.ID)
}

// registrationKey is what a registration with ep's authorization server
// is kept for.
func (f *Flow) registrationKey(ep endpoints) RegistrationKey {
	name := f.ClientName
	if name == "" {
		name = "companion"
	}
	return RegistrationKey{Endpoint: ep.registration, Resource: ep.resource, ClientName: name,
		Scopes: ep.scopes, ConfiguredURI: f.Settings.RedirectURI}
}

// config is the oauth2 configuration of client at ep, redirected to lb.
func (f *Flow) config(ep endpoints, client Client, lb *loopback) *oauth2.Config {
	cfg := &oauth2.Config{ClientID: client.ID, ClientSecret: client.Secret, RedirectURL: lb.redirectURI,
		Scopes: ep.scopes, Endpoint: oauth2.Endpoint{AuthURL: ep.authURL, TokenURL: ep.tokenURL}}
	if client.Secret == "" {
		cfg.Endpoint.AuthStyle = oauth2.AuthStyleInParams
	}
	return cfg
}

// authorize shows the authorization URL, waits for the redirect and
// exchanges its code.
func (f *Flow) authorize(ctx context.Context, hc *http.Client, cfg *oauth2.Config, lb *loopback, resource string) (*oauth2.Token, error) {
	verifier := oauth2.GenerateVerifier()
	state, err := randomString()
	if err != nil {
		return nil, err
	}
	opts := []oauth2.AuthCodeOption{oauth2.S256ChallengeOption(verifier)}
	if resource != "" {
		opts = append(opts, oauth2.SetAuthURLParam("resource", resource))
	}
	authURL := cfg.AuthCodeURL(state, opts...)
	result := lb.expect(state)
	if f.Show != nil {
		f.Show(ctx, authURL)
	}
	code, err := lb.wait(ctx, result)
	if err != nil {
		return nil, err
	}
	xopts := []oauth2.AuthCodeOption{oauth2.VerifierOption(verifier)}
	if resource != "" {
		xopts = append(xopts, oauth2.SetAuthURLParam("resource", resource))
	}
	tok, err := cfg.Exchange(context.WithValue(ctx, oauth2.HTTPClient, hc), code, xopts...)
	if err != nil {
		return nil, fmt.Errorf("token exchange: %w", err)
	}
	return tok, nil
}

// discover finds the endpoints: configured, or from the resource's and
// the authorization server's metadata.
func (f *Flow) discover(ctx context.Context, hc *http.Client) (endpoints, error) {
	s := f.Settings
	ep := endpoints{authURL: s.AuthorizationURL, tokenURL: s.TokenURL, scopes: s.Scopes, resource: canonicalResource(f.ServerURL)}
	if ep.authURL != "" && ep.tokenURL != "" {
		return ep, nil
	}
	issuer := origin(f.ServerURL)
	rm, err := DiscoverResource(ctx, hc, f.ServerURL, f.ResourceMetadataURL)
	switch {
	case err == nil:
		if rm.Resource != "" && !strings.EqualFold(origin(rm.Resource), origin(f.ServerURL)) {
			return ep, fmt.Errorf("the resource metadata is for %s, not for %s", rm.Resource, f.ServerURL)
		}
		issuer = rm.AuthorizationServers[0]
		if rm.Resource != "" {
			ep.resource = rm.Resource
		}
		if len(ep.scopes) == 0 {
			ep.scopes = rm.ScopesSupported
		}
	case !errors.Is(err, ErrNoMetadata):
		return ep, err
	}
	sm, err := DiscoverServer(ctx, hc, issuer)
	if err != nil {
		return ep, fmt.Errorf("authorization server %s: %w", issuer, err)
	}
	if len(sm.CodeChallengeMethods) > 0 && !slices.Contains(sm.CodeChallengeMethods, "S256") {
		return ep, fmt.Errorf("authorization server %s does not support PKCE with S256", issuer)
	}
	if ep.authURL == "" {
		ep.authURL = sm.AuthorizationEndpoint
	}
	if ep.tokenURL == "" {
		ep.tokenURL = sm.TokenEndpoint
	}
	ep.registration = sm.RegistrationEndpoint
	return ep, nil
}

// origin is scheme://host of u.
func origin(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return u
	}
	return p.Scheme + "://" + p.Host
}

// canonicalResource is the server's URL as a resource indicator: no
// fragment, lower-case scheme and host.
func canonicalResource(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return u
	}
	p.Fragment, p.RawFragment = "", ""
	p.Scheme, p.Host = strings.ToLower(p.Scheme), strings.ToLower(p.Host)
	return p.String()
}

// randomString is 32 random bytes, base64url-encoded.
func randomString() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}
