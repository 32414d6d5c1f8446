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
)

// ErrNoMetadata means no metadata document was found at any of the
// well-known places.
var ErrNoMetadata = errors.New("no OAuth metadata found")

// maxDocument bounds a metadata or token document read from a server.
const maxDocument = 1 << 20

// ResourceMetadata is a protected resource's metadata (RFC 9728).
type ResourceMetadata struct {
	Resource             string   `json:"resource"`
	AuthorizationServers []string `json:"authorization_servers"`
	ScopesSupported      []string `json:"scopes_supported,omitempty"`
}

// ServerMetadata is an authorization server's metadata (RFC 8414, or the
// OAuth fields of an OpenID Connect discovery document).
type ServerMetadata struct {
	Issuer                string   `json:"issuer"`
	AuthorizationEndpoint string   `json:"authorization_endpoint"`
	TokenEndpoint         string   `json:"token_endpoint"`
	RegistrationEndpoint  string   `json:"registration_endpoint,omitempty"`
	ScopesSupported       []string `json:"scopes_supported,omitempty"`
	CodeChallengeMethods  []string `json:"code_challenge_methods_supported,omitempty"`
}

// ResourceMetadataURL returns the resource_metadata parameter of a Bearer
// challenge (a WWW-Authenticate header value), "" when there is none.
func ResourceMetadataURL(challenge string) string {
	rest := challenge
	for {
		i := strings.Index(strings.ToLower(rest), "resource_metadata")
		if i < 0 {
			return ""
		}
		before := strings.TrimRight(rest[:i], " \t")
		rest = rest[i+len("resource_metadata"):]
		if before != "" && !strings.HasSuffix(before, ",") && !strings.HasSuffix(strings.ToLower(before), "bearer") {
			continue // part of another word
		}
		after := strings.TrimLeft(rest, " \t")
		if !strings.HasPrefix(after, "=") {
			continue
		}
		return paramValue(strings.TrimLeft(after[1:], " \t"))
	}
}

// paramValue reads an auth-param value at the start of s: a quoted string
// (with backslash escapes) or a token.
func paramValue(s string) string {
	if !strings.HasPrefix(s, `"`) {
		end := strings.IndexAny(s, ", \t")
		if end < 0 {
			return s
		}
		return s[:end]
	}
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' && i+1 < len(s):
			i++
			b.WriteByte(s[i])
		case c == '"':
			return b.String()
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// DiscoverResource fetches the protected-resource metadata of the MCP
// server at serverURL: from metadataURL when the server's challenge named
// one, else from /.well-known/oauth-protected-resource with the server's
// path, then at the root. It wraps ErrNoMetadata when none answers.
func DiscoverResource(ctx context.Context, hc *http.Client, serverURL, metadataURL string) (*ResourceMetadata, error) {
	var candidates []string
	if metadataURL != "" {
		candidates = append(candidates, metadataURL)
	}
	u, err := url.Parse(serverURL)
	if err != nil {
		return nil, fmt.Errorf("server URL: %w", err)
	}
	candidates = append(candidates, wellKnown(u, "oauth-protected-resource", true)...)
	var rm ResourceMetadata
	if err := firstDocument(ctx, hc, candidates, &rm); err != nil {
		return nil, err
	}
	if len(rm.AuthorizationServers) == 0 {
		return nil, fmt.Errorf("%w: the resource metadata names no authorization server", ErrNoMetadata)
	}
	return &rm, nil
}

// DiscoverServer fetches the metadata of the authorization server issuer:
// RFC 8414's /.well-known/oauth-authorization-server, then OpenID Connect's
// /.well-known/openid-configuration (inserted after the host, then
// appended to the issuer's path). It wraps ErrNoMetadata when none
// answers.
func DiscoverServer(ctx context.Context, hc *http.Client, issuer string) (*ServerMetadata, error) {
	u, err := url.Parse(issuer)
	if err != nil {
		return nil, fmt.Errorf("issuer: %w", err)
	}
	candidates := wellKnown(u, "oauth-authorization-server", false)
	candidates = append(candidates, wellKnown(u, "openid-configuration", false)...)
	if p := strings.TrimSuffix(u.Path, "/"); p != "" {
		candidates = append(candidates, u.Scheme+"://"+u.Host+p+"/.well-known/openid-configuration")
	}
	var sm ServerMetadata
	if err := firstDocument(ctx, hc, candidates, &sm); err != nil {
		return nil, err
	}
	if sm.AuthorizationEndpoint == "" || sm.TokenEndpoint == "" {
		return nil, fmt.Errorf("%w: the server metadata lacks an authorization or token endpoint", ErrNoMetadata)
	}
	return &sm, nil
}

// wellKnown is the well-known URL of name for u: with u's path appended
// when it has one, and (rootToo) at the root as well.
func wellKnown(u *url.URL, name string, rootToo bool) []string {
	base := u.Scheme + "://" + u.Host + "/.well-known/" + name
	p := strings.TrimSuffix(u.Path, "/")
	if p == "" {
		return []string{base}
	}
	if rootToo {
		return []string{base + p, base}
	}
	return []string{base + p}
}

// firstDocument decodes into v the first of urls that answers 200 with
// JSON.
func firstDocument(ctx context.Context, hc *http.Client, urls []string, v any) error {
	var tried []string
	for _, u := range urls {
		ok, err := getJSON(ctx, hc, u, v)
		if err != nil && ctx.Err() != nil {
			return err
		}
		if ok {
			return nil
		}
		if err != nil {
			tried = append(tried, err.Error())
		} else {
			tried = append(tried, u)
		}
	}
	return fmt.Errorf("%w (tried %s)", ErrNoMetadata, strings.Join(tried, "; "))
}

// getJSON fetches u and decodes a 200 answer into v; a 4xx or 5xx answer
// is (false, nil).
func getJSON(ctx context.Context, hc *http.Client, u string, v any) (bool, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return false, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		return false, fmt.Errorf("GET %s: %w", u, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxDocument))
		return false, nil
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxDocument)).Decode(v); err != nil {
		return false, fmt.Errorf("GET %s: %w", u, err)
	}
	return true, nil
}
