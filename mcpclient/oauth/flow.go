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
	// context ends with the flow.
	Show func(ctx context.Context, authURL string)
}

// endpoints is what discovery found.
type endpoints struct {
	authURL, tokenURL, registration string
	resource                        string
	scopes                          []string
}

// Run authorizes: discovery, registration when needed, the browser's
// round trip to the loopback redirect, and the code exchange. It returns
// when the user answered or ctx ended.
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
	lb, err := listenLoopback(f.Settings.RedirectURI)
	if err != nil {
		return nil, err
	}
	defer lb.close()
	client := Client{ID: f.Settings.ClientID, Secret: f.Settings.ClientSecret}
	if client.ID == "" {
		if ep.registration == "" {
			return nil, ErrNoClient
		}
		name := f.ClientName
		if name == "" {
			name = "companion"
		}
		if client, err = Register(ctx, hc, ep.registration, name, lb.redirectURI, ep.scopes); err != nil {
			return nil, err
		}
	}
	cfg := &oauth2.Config{ClientID: client.ID, ClientSecret: client.Secret, RedirectURL: lb.redirectURI,
		Scopes: ep.scopes, Endpoint: oauth2.Endpoint{AuthURL: ep.authURL, TokenURL: ep.tokenURL}}
	if client.Secret == "" {
		cfg.Endpoint.AuthStyle = oauth2.AuthStyleInParams
	}
	tok, err := f.authorize(ctx, hc, cfg, lb, ep.resource)
	if err != nil {
		return nil, err
	}
	return &Grant{ServerURL: f.ServerURL, Resource: ep.resource, ClientID: client.ID, ClientSecret: client.Secret,
		TokenURL: ep.tokenURL, Scopes: ep.scopes, AccessToken: tok.AccessToken, RefreshToken: tok.RefreshToken,
		TokenType: tok.TokenType, Expiry: tok.Expiry}, nil
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
	lb.serve(state)
	if f.Show != nil {
		f.Show(ctx, authURL)
	}
	code, err := lb.wait(ctx)
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
