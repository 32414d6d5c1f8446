// Package oauth authorizes companion's MCP client with remote servers that
// require OAuth 2.1, as the MCP authorization specification describes:
// discovery from a 401's WWW-Authenticate challenge, protected-resource
// metadata (RFC 9728) and authorization-server metadata (RFC 8414, with the
// OpenID Connect fallback); dynamic client registration (RFC 7591) or a
// configured client; the authorization code flow with PKCE (S256) and a
// loopback redirect on 127.0.0.1; the resource indicator (RFC 8707) on the
// authorization and token requests; refresh.
//
// Grants are kept per server in a Store, a JSON file only the user can
// read. A Transport is an http.RoundTripper that adds the bearer token to
// every request, refreshes it before it expires and on a 401 (retrying the
// request once), so that mcpclient's HTTP transports get OAuth without
// knowing it. Running the interactive Flow is the caller's decision.
//
// The protocol plumbing (authorization URLs, PKCE, code exchange) is
// golang.org/x/oauth2; discovery, registration and refresh with a resource
// indicator are this package's own.
package oauth
