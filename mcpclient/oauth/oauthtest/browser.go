package oauthtest

import (
	"context"
	"fmt"
	"io"
	"net/http"
)

// Browser follows an authorization URL as a user's browser would: to the
// authorization endpoint, which approves, and through its redirect to
// companion's loopback. It returns the loopback's status.
func Browser(ctx context.Context, authURL string) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, authURL, nil)
	if err != nil {
		return 0, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, nil
}

// Redirect follows authURL to the authorization endpoint only and returns
// where it redirects (the loopback URL with code and state), without
// visiting it.
func Redirect(ctx context.Context, authURL string) (string, error) {
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, authURL, nil)
	if err != nil {
		return "", err
	}
	resp, err := c.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusFound {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return "", fmt.Errorf("authorize: HTTP %d: %s", resp.StatusCode, body)
	}
	return resp.Header.Get("Location"), nil
}
