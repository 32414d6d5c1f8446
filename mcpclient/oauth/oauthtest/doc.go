// Package oauthtest is a test OAuth 2.1 authorization server and an MCP
// server it protects, on 127.0.0.1, for companion's tests: metadata
// (RFC 9728, RFC 8414), dynamic client registration, the authorization
// endpoint (which approves at once, checking PKCE, the resource indicator
// and the exact registered redirect URI: it allows no other loopback
// port), the token endpoint (code and refresh grants; refresh tokens
// rotate, so a second use is refused), and a streamable HTTP (and legacy
// SSE) MCP server with one tool, "whoami", that answers 401 with a
// resource_metadata challenge without a valid bearer token. Tests expire
// and revoke tokens to drive refresh and re-authorization, forget
// registered clients (ForgetClients) to drive registering again, and read
// what it counted (Counts, RedirectURIs).
package oauthtest
