package oauth

import (
	"context"
	"errors"
	"fmt"

	"github.com/mark3labs/mcp-go/client/transport"
)

// ErrRefreshRejected means the authorization server refused the refresh
// token (revoked or expired): the user must authorize again.
var ErrRefreshRejected = errors.New("the refresh token was refused")

// errUnlocked is a token store use outside Store.update.
var errUnlocked = errors.New("oauth: the grants file is not locked")

// lockedTokens is mcp-go's token store over one server's grant while
// Store.update holds the grants file's lock: the handler reads and
// writes the file's contents under the lock, and update writes them back
// (atomically) when the refresh is done. So one process refreshes while
// the others wait, and a rotated refresh token is sent once. Its owner
// (Source, under its mutex) sets f for the length of one update.
type lockedTokens struct {
	name, serverURL string
	f               *storeFile
}

// GetToken implements transport.TokenStore.
func (t *lockedTokens) GetToken(ctx context.Context) (*transport.Token, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if t.f == nil {
		return nil, errUnlocked
	}
	g := t.f.grant(t.name, t.serverURL)
	if g == nil {
		return nil, transport.ErrNoToken
	}
	return &transport.Token{AccessToken: g.AccessToken, TokenType: g.TokenType, RefreshToken: g.RefreshToken,
		ExpiresAt: g.Expiry}, nil
}

// SaveToken implements transport.TokenStore: tok replaces the grant's
// tokens, keeping its client and endpoints.
func (t *lockedTokens) SaveToken(ctx context.Context, tok *transport.Token) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if t.f == nil {
		return errUnlocked
	}
	g := t.f.grant(t.name, t.serverURL)
	if g == nil {
		return errNoGrant
	}
	n := *g
	n.AccessToken, n.TokenType, n.RefreshToken, n.Expiry = tok.AccessToken, tok.TokenType, tok.RefreshToken, tok.ExpiresAt
	t.f.Servers[t.name] = &n
	return nil
}

// refreshRejected reports whether a refresh failed because the
// authorization server refused it with an OAuth error (invalid_grant for
// a revoked or expired refresh token, invalid_client, …), rather than
// for a network or server failure worth trying again.
func refreshRejected(err error) bool {
	var oe transport.OAuthError
	return errors.As(err, &oe)
}

// handlerFor is the mcp-go handler that refreshes g: made once per
// client (it keeps what discovery found), its token store the locked
// grants file. The caller holds s.mu.
func (s *Source) handlerFor(g *Grant) *transport.OAuthHandler {
	key := g.ClientID + "\x00" + g.ClientSecret + "\x00" + g.AuthURL + "\x00" + g.TokenURL
	if s.h != nil && s.hKey == key {
		return s.h
	}
	c := handlerConfig{hc: s.hc, serverURL: s.serverURL, metadataURL: s.metadataURL,
		client: Client{ID: g.ClientID, Secret: g.ClientSecret}, scopes: g.Scopes, tokens: s.tokens}
	if g.AuthURL != "" {
		c.authURL, c.tokenURL = g.AuthURL, g.TokenURL
	}
	s.h, s.hKey = newHandler(c), key
	return s.h
}

// refreshWith trades g's refresh token through h, the grants file f
// locked; it returns the grant saved in f.
func (s *Source) refreshWith(ctx context.Context, f *storeFile, g *Grant) (*Grant, error) {
	s.tokens.f = f
	defer func() { s.tokens.f = nil }()
	if _, err := s.handlerFor(g).RefreshToken(ctx, g.RefreshToken); err != nil {
		if refreshRejected(err) {
			return nil, fmt.Errorf("%w: %w", ErrRefreshRejected, err)
		}
		return nil, fmt.Errorf("refresh: %w", err)
	}
	return f.grant(s.name, s.serverURL), nil
}
