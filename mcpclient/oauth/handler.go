package oauth

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"

	"github.com/mark3labs/mcp-go/client/transport"
)

// handlerConfig is what one mcp-go OAuth handler is made from.
type handlerConfig struct {
	hc        *http.Client
	serverURL string
	// metadataURL is the resource_metadata of the server's challenge ("":
	// the well-known place).
	metadataURL string
	client      Client
	redirectURI string
	scopes      []string
	// authURL and tokenURL, when both set, are configured endpoints:
	// discovery is skipped.
	authURL, tokenURL string
	// tokens is the handler's token store (nil: one in memory).
	tokens transport.TokenStore
}

// newHandler is mcp-go's OAuth handler for c: it does discovery (RFC 9728,
// RFC 8414 with the OpenID Connect fallbacks, the issuer check),
// registration, the authorization URL with PKCE and the resource
// indicator, the code exchange and refresh.
func newHandler(c handlerConfig) *transport.OAuthHandler {
	if c.tokens == nil {
		c.tokens = transport.NewMemoryTokenStore()
	}
	cfg := transport.OAuthConfig{ClientID: c.client.ID, ClientSecret: c.client.Secret, RedirectURI: c.redirectURI,
		Scopes: c.scopes, TokenStore: c.tokens, PKCEEnabled: true, HTTPClient: c.hc,
		ProtectedResourceMetadataURL: c.metadataURL}
	if c.authURL != "" && c.tokenURL != "" {
		cfg.ProtectedResourceMetadataURL = configuredResourceURL
		cfg.HTTPClient = configuredClient(c.hc, canonicalResource(c.serverURL), c.authURL, c.tokenURL)
	}
	h := transport.NewOAuthHandler(cfg)
	h.SetBaseURL(c.serverURL)
	return h
}

// configuredIssuer names the authorization server of configured
// endpoints; configuredClient answers for it without a request.
const (
	configuredIssuer      = "https://companion.invalid"
	configuredResourceURL = configuredIssuer + "/.well-known/oauth-protected-resource"
)

// configuredClient is hc answering, without a request, the two metadata
// documents that name configured endpoints: the protected resource's
// (resource, the authorization server configuredIssuer) and that
// server's (the endpoints). mcp-go takes endpoints only from metadata
// documents, while a server's oauth block (Gemini CLI's) names the
// endpoints themselves; going through the resource's document keeps the
// resource indicator (RFC 8707) mcp-go sends only after that discovery.
func configuredClient(hc *http.Client, resource, authURL, tokenURL string) *http.Client {
	c := *hc
	base := c.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	docs := map[string]any{
		configuredResourceURL: map[string]any{"resource": resource, "authorization_servers": []string{configuredIssuer}},
		configuredIssuer + "/.well-known/oauth-authorization-server": map[string]any{"issuer": configuredIssuer,
			"authorization_endpoint": authURL, "token_endpoint": tokenURL, "response_types_supported": []string{"code"}},
	}
	c.Transport = roundTripFunc(func(r *http.Request) (*http.Response, error) {
		doc, ok := docs[r.URL.String()]
		if !ok {
			return base.RoundTrip(r)
		}
		body, err := json.Marshal(doc)
		if err != nil {
			return nil, err
		}
		return &http.Response{StatusCode: http.StatusOK, Header: http.Header{"Content-Type": {"application/json"}},
			Body: io.NopCloser(bytes.NewReader(body)), Request: r}, nil
	})
	return &c
}

// roundTripFunc is a function as an http.RoundTripper.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
