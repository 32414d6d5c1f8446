package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// ErrRefreshRejected means the authorization server refused the refresh
// token (revoked or expired): the user must authorize again.
var ErrRefreshRejected = errors.New("the refresh token was refused")

// Refresh trades g's refresh token for new tokens, with g's resource
// indicator, and returns the updated grant (keeping the refresh token when
// the server sends no new one). A refusal by the server wraps
// ErrRefreshRejected.
func Refresh(ctx context.Context, hc *http.Client, g *Grant) (*Grant, error) {
	if g.RefreshToken == "" {
		return nil, fmt.Errorf("%w: there is none", ErrRefreshRejected)
	}
	form := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {g.RefreshToken}, "client_id": {g.ClientID}}
	if g.ClientSecret != "" {
		form.Set("client_secret", g.ClientSecret)
	}
	if g.Resource != "" {
		form.Set("resource", g.Resource)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, g.TokenURL, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, fmt.Errorf("refresh: %w", err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("refresh: %w", err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxDocument))
	if err != nil {
		return nil, fmt.Errorf("refresh: %w", err)
	}
	if resp.StatusCode == http.StatusBadRequest || resp.StatusCode == http.StatusUnauthorized {
		return nil, fmt.Errorf("%w: HTTP %d: %s", ErrRefreshRejected, resp.StatusCode, clip(raw))
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("refresh: HTTP %d: %s", resp.StatusCode, clip(raw))
	}
	return refreshed(g, raw, time.Now())
}

// refreshed is g updated with a token response.
func refreshed(g *Grant, raw []byte, now time.Time) (*Grant, error) {
	var tr struct {
		AccessToken  string `json:"access_token"`
		TokenType    string `json:"token_type"`
		RefreshToken string `json:"refresh_token"`
		ExpiresIn    int64  `json:"expires_in"`
	}
	if err := json.Unmarshal(raw, &tr); err != nil {
		return nil, fmt.Errorf("refresh: %w", err)
	}
	if tr.AccessToken == "" {
		return nil, fmt.Errorf("refresh: the answer has no access_token")
	}
	n := *g
	n.AccessToken, n.TokenType, n.Expiry = tr.AccessToken, tr.TokenType, time.Time{}
	if tr.RefreshToken != "" {
		n.RefreshToken = tr.RefreshToken
	}
	if tr.ExpiresIn > 0 {
		n.Expiry = now.Add(time.Duration(tr.ExpiresIn) * time.Second)
	}
	return &n, nil
}
