package oauth

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// Client is an OAuth client: the id the authorization server knows
// companion by, and its secret for a confidential client.
type Client struct {
	ID     string `json:"client_id"`
	Secret string `json:"client_secret,omitempty"`
}

// Register registers companion as a public client with the authorization
// server's registration endpoint (RFC 7591), for redirectURI.
func Register(ctx context.Context, hc *http.Client, endpoint, clientName, redirectURI string, scopes []string) (Client, error) {
	body := map[string]any{
		"client_name":                clientName,
		"redirect_uris":              []string{redirectURI},
		"grant_types":                []string{"authorization_code", "refresh_token"},
		"response_types":             []string{"code"},
		"token_endpoint_auth_method": "none",
	}
	if len(scopes) > 0 {
		body["scope"] = strings.Join(scopes, " ")
	}
	data, err := json.Marshal(body)
	if err != nil {
		return Client{}, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(data))
	if err != nil {
		return Client{}, fmt.Errorf("client registration: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		return Client{}, fmt.Errorf("client registration: %w", err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxDocument))
	if err != nil {
		return Client{}, fmt.Errorf("client registration: %w", err)
	}
	if resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusCreated {
		return Client{}, fmt.Errorf("client registration: HTTP %d: %s", resp.StatusCode, clip(raw))
	}
	var c Client
	if err := json.Unmarshal(raw, &c); err != nil {
		return Client{}, fmt.Errorf("client registration: %w", err)
	}
	if c.ID == "" {
		return Client{}, fmt.Errorf("client registration: the answer has no client_id")
	}
	return c, nil
}

// clip is the start of a server's answer, for an error message.
func clip(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}
