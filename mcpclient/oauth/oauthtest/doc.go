// Package oauthtest is a test OAuth 2.1 authorization server and an MCP
// server it protects, on 127.0.0.1, for companion's tests: metadata
// (RFC 9728, RFC 8414), dynamic client registration, the authorization
// endpoint (which approves at once, checking PKCE and the resource
// indicator), the token endpoint (code and refresh grants), and a
// streamable HTTP (and legacy SSE) MCP server with one tool, "whoami", that answers 401
// with a resource_metadata challenge without a valid bearer token. Tests
// expire and revoke tokens to drive refresh and re-authorization.
package oauthtest
