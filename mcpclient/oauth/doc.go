// Package oauth authorizes companion's MCP client with remote servers that
// require OAuth 2.1, as the MCP authorization specification describes:
// discovery from a 401's WWW-Authenticate challenge, protected-resource
// metadata (RFC 9728) and authorization-server metadata (RFC 8414, with the
// OpenID Connect fallback); dynamic client registration (RFC 7591) or a
// configured client; the authorization code flow with PKCE (S256) and a
// loopback redirect on 127.0.0.1; the resource indicator (RFC 8707) on the
// authorization and token requests; refresh.
//
// The protocol is mcp-go's (client/transport's OAuthHandler): discovery,
// registration, the authorization URL, the code exchange and refresh.
// This package adds what mcp-go leaves to its caller: the loopback
// redirect, the grants file (mcp-go's TokenStore, under a cross-process
// lock) and the registrations kept in it, the bearer RoundTripper that
// renews a token another process may have renewed, and endpoints
// configured by hand (given to mcp-go as a metadata document, the only
// form it takes them in), and the resource metadata's scopes_supported as
// the scopes to ask for when none are configured (mcp-go asks for
// configured scopes only).
//
// Grants are kept per server in a Store, a JSON file only the user can
// read. A Transport is an http.RoundTripper that adds the bearer token to
// every request, refreshes it before it expires and on a 401 (retrying the
// request once), so that mcpclient's HTTP transports get OAuth without
// knowing it. Running the interactive Flow is the caller's decision.
//
// # Registrations
//
// A Flow with a Store registers once per authorization server and server
// configuration (registration endpoint, the server's URL, client name, scopes,
// configured redirect URI) and keeps the client beside the grants: its id,
// its secret if the server gave one, and the redirect URI it was
// registered with. A later authorization listens on that URI's 127.0.0.1
// port again and reuses the client. When the port is taken it listens on a
// new one and registers again, keeping the new client: an authorization
// server should allow any loopback port (RFC 8252 §7.3), but not all do,
// and one that does not can only say so to the user's browser. A kept
// client the server refuses with invalid_client (in the redirect or at
// the token endpoint) is forgotten and registered again, once. A server
// may instead refuse an unknown client on a page of its own, with no
// redirect (RFC 6749 §4.1.2.1): a flow with a kept client that ends
// unanswered (its context ended) forgets the client, so the next one
// registers.
//
// # Several processes
//
// Several companion processes (one per editor) share the file. Every
// read-modify-write of it, and every refresh, holds an exclusive lock on the
// sibling file path+".lock" (flock on unix, LockFileEx on Windows; on
// other platforms only the Store's own semaphore, within one Store),
// polled with a short backoff until it is free or the context ends (Save
// and Delete, which take no context, wait at most 30 s). A refresh reads
// the grant again under the lock and uses a token another process renewed
// meanwhile, so a rotated refresh token is used once. Writes replace the
// file atomically (a 0600 temporary file renamed over it), so reads take
// no lock.
//
// # Limits
//
// Authorization-server metadata is fetched twice per authorization (the
// loopback port, and so the handler's redirect URI, is chosen only once
// discovery has named the registration endpoint) and once per process
// and client for refreshes. A refresh holds the lock for the length of
// its token request, so refreshes of different servers wait for each
// other. Forgetting a grant (companion mcp logout) keeps the server's
// registered client. Endpoints
// configured by hand get no resource indicator (mcp-go sends one only
// after protected-resource discovery).
package oauth
