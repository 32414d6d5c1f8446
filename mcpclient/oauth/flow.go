package oauth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/mark3labs/mcp-go/client/transport"
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

// discoveryRedirect is the redirect URI mcp-go requires of every handler,
// given to the one that only discovers (it registers nothing and sends no
// one anywhere).
const discoveryRedirect = "http://127.0.0.1/oauth/callback"

// Run authorizes: discovery, registration when needed (or the client
// Store kept from an earlier registration), the browser's round trip to
// the loopback redirect, and the code exchange. A kept client the
// authorization server refuses (invalid_client) is forgotten and
// registered anew, once. It returns when the user answered or ctx ended.
//
// mcp-go's OAuthHandler does the protocol: discovery, registration, the
// authorization URL with PKCE and the resource indicator, the exchange.
// Its redirect URI is fixed when it is made, and the loopback (a kept
// client's port, or a new one) can only be chosen once discovery has
// named the registration endpoint, so a first handler discovers and the
// one that authorizes is made for the chosen client and port.
func (f *Flow) Run(ctx context.Context) (*Grant, error) {
	// Show's context ends with the flow (a question to the user is
	// withdrawn).
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	hc := f.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	if len(f.Settings.Scopes) == 0 && !f.configured() {
		run := *f // the caller's Flow is left as it is
		run.Settings.Scopes = resourceScopes(ctx, hc, f.ServerURL, f.ResourceMetadataURL)
		f = &run
	}
	md, err := f.newHandler(hc, Client{}, discoveryRedirect, nil).GetServerMetadata(ctx)
	if err != nil {
		return nil, err
	}
	if len(md.CodeChallengeMethodsSupported) > 0 && !slices.Contains(md.CodeChallengeMethodsSupported, "S256") {
		return nil, fmt.Errorf("authorization server %s does not support PKCE with S256", md.Issuer)
	}
	key := f.registrationKey(md.RegistrationEndpoint)
	a, err := f.client(ctx, hc, key)
	if err != nil {
		return nil, err
	}
	defer a.lb.close()
	tok, authURL, err := f.authorize(ctx, a)
	if err != nil && a.kept && clientRejected(err) {
		_ = f.Store.dropRegistration(ctx, key, a.client.ID) // registering again replaces it anyway
		if err := f.register(ctx, hc, key, a); err != nil {
			return nil, err
		}
		a.kept = false // the new client was never refused: an unanswered flow keeps it
		tok, authURL, err = f.authorize(ctx, a)
	}
	if err != nil && a.kept && ctx.Err() != nil {
		f.forgetUnanswered(ctx, key, a.client)
	}
	if err != nil {
		return nil, err
	}
	g := &Grant{ServerURL: f.ServerURL, Resource: resourceOf(authURL), ClientID: a.client.ID, ClientSecret: a.client.Secret,
		Scopes: f.Settings.Scopes, AccessToken: tok.AccessToken, RefreshToken: tok.RefreshToken, TokenType: tok.TokenType,
		Expiry: tok.ExpiresAt}
	if f.configured() {
		g.AuthURL, g.TokenURL = f.Settings.AuthorizationURL, f.Settings.TokenURL
	}
	return g, nil
}

// configured reports whether the endpoints are configured (no discovery).
func (f *Flow) configured() bool {
	return f.Settings.AuthorizationURL != "" && f.Settings.TokenURL != ""
}

// newHandler is the mcp-go handler of this flow for client, redirected to
// redirectURI, keeping its token in tokens (nil: a store of its own).
func (f *Flow) newHandler(hc *http.Client, client Client, redirectURI string, tokens transport.TokenStore) *transport.OAuthHandler {
	c := handlerConfig{hc: hc, serverURL: f.ServerURL, metadataURL: f.ResourceMetadataURL, client: client,
		redirectURI: redirectURI, scopes: f.Settings.Scopes, tokens: tokens}
	if f.configured() {
		c.authURL, c.tokenURL = f.Settings.AuthorizationURL, f.Settings.TokenURL
	}
	return newHandler(c)
}

// attempt is one authorization's client, its handler and the loopback
// listening for its redirect.
type attempt struct {
	h *transport.OAuthHandler
	// tokens is h's token store: the exchange saves the token there, and
	// Run's caller saves the grant in Store.
	tokens *transport.MemoryTokenStore
	client Client
	lb     *loopback
	// kept: the client is one Store kept from an earlier registration.
	kept bool
}

// use makes a's handler, for client.
func (f *Flow) use(hc *http.Client, a *attempt, client Client) {
	a.tokens = transport.NewMemoryTokenStore()
	a.h, a.client = f.newHandler(hc, client, a.lb.redirectURI, a.tokens), client
}

// client is the client to authorize with: the configured client; else the
// client Store kept for this authorization server and configuration,
// listening on its registered redirect URI (kept is set); else, and when
// that port is taken, a new registration on a new port, which Store keeps
// under key.
func (f *Flow) client(ctx context.Context, hc *http.Client, key RegistrationKey) (*attempt, error) {
	if f.Settings.ClientID != "" {
		lb, err := listenLoopback(f.Settings.RedirectURI)
		if err != nil {
			return nil, err
		}
		a := &attempt{lb: lb}
		f.use(hc, a, Client{ID: f.Settings.ClientID, Secret: f.Settings.ClientSecret})
		return a, nil
	}
	if key.Endpoint == "" {
		return nil, ErrNoClient
	}
	if f.Store != nil {
		if r, err := f.Store.registration(key); err == nil && r != nil {
			if lb, err := listenLoopback(r.RedirectURI); err == nil {
				a := &attempt{lb: lb, kept: true}
				f.use(hc, a, r.client())
				return a, nil
			}
			// its port is taken: a new port needs a new registration (an
			// authorization server may allow any loopback port, RFC 8252
			// §7.3, but nothing says this one does)
		}
	}
	lb, err := listenLoopback(f.Settings.RedirectURI)
	if err != nil {
		return nil, err
	}
	a := &attempt{lb: lb}
	if err := f.register(ctx, hc, key, a); err != nil {
		lb.close()
		return nil, err
	}
	return a, nil
}

// register registers companion (mcp-go's RegisterClient, RFC 7591) for
// a's redirect URI, gives a the new client and its handler, and keeps the
// client in Store.
func (f *Flow) register(ctx context.Context, hc *http.Client, key RegistrationKey, a *attempt) error {
	f.use(hc, a, Client{})
	if err := a.h.RegisterClient(ctx, key.ClientName); err != nil {
		return fmt.Errorf("client registration: %w", err)
	}
	a.client = Client{ID: a.h.GetClientID(), Secret: a.h.GetClientSecret()}
	if f.Store != nil {
		// not kept: the authorization goes on, and the next one registers again
		_ = f.Store.putRegistration(ctx, &Registration{RegistrationKey: key, ClientID: a.client.ID,
			ClientSecret: a.client.Secret, RedirectURI: a.lb.redirectURI})
	}
	return nil
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

// registrationKey is what a registration with endpoint is kept for. Its
// resource is the server's URL: mcp-go keeps the resource indicator it
// discovers to itself.
func (f *Flow) registrationKey(endpoint string) RegistrationKey {
	name := f.ClientName
	if name == "" {
		name = "companion"
	}
	return RegistrationKey{Endpoint: endpoint, Resource: canonicalResource(f.ServerURL), ClientName: name,
		Scopes: f.Settings.Scopes, ConfiguredURI: f.Settings.RedirectURI}
}

// authorize shows the authorization URL, waits for the redirect and
// exchanges its code; it returns the token and the URL shown.
func (f *Flow) authorize(ctx context.Context, a *attempt) (*transport.Token, string, error) {
	verifier, err := transport.GenerateCodeVerifier()
	if err != nil {
		return nil, "", err
	}
	state, err := transport.GenerateState()
	if err != nil {
		return nil, "", err
	}
	authURL, err := a.h.GetAuthorizationURL(ctx, state, transport.GenerateCodeChallenge(verifier))
	if err != nil {
		return nil, "", err
	}
	result := a.lb.expect(state)
	if f.Show != nil {
		f.Show(ctx, authURL)
	}
	code, err := a.lb.wait(ctx, result)
	if err != nil {
		return nil, authURL, err
	}
	if err := a.h.ProcessAuthorizationResponse(ctx, code, state, verifier); err != nil {
		return nil, authURL, fmt.Errorf("token exchange: %w", err)
	}
	tok, err := a.tokens.GetToken(ctx) // where the exchange saved it
	return tok, authURL, err
}

// resourceOf is the resource indicator (RFC 8707) of an authorization
// URL, "" when it has none.
func resourceOf(authURL string) string {
	u, err := url.Parse(authURL)
	if err != nil {
		return ""
	}
	return u.Query().Get("resource")
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
