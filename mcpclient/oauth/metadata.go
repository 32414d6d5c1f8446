package oauth

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// ResourceMetadataURL returns the resource_metadata parameter of a Bearer
// challenge (a WWW-Authenticate header value), "" when there is none.
// mcp-go parses challenges only inside its handler
// (HandleUnauthorizedResponse), which keeps the URL to itself; companion
// needs it before any handler exists, to start a flow from a 401.
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

// resourceScopes is the scopes_supported of the server's protected-resource
// metadata (RFC 9728) at metadataURL, or at its well-known place when that
// is "": nil when there is none. MCP's authorization spec has a client
// with no scope in the challenge ask for these; mcp-go reads that document
// for its authorization servers only and requests configured scopes alone.
func resourceScopes(ctx context.Context, hc *http.Client, serverURL, metadataURL string) []string {
	if metadataURL == "" {
		p, err := url.Parse(serverURL)
		if err != nil {
			return nil
		}
		metadataURL = p.Scheme + "://" + p.Host + "/.well-known/oauth-protected-resource" + strings.TrimSuffix(p.EscapedPath(), "/")
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, metadataURL, nil)
	if err != nil {
		return nil
	}
	req.Header.Set("Accept", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		return nil
	}
	defer resp.Body.Close()
	var doc struct {
		Scopes []string `json:"scopes_supported"`
	}
	if resp.StatusCode != http.StatusOK || json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&doc) != nil {
		return nil
	}
	return doc.Scopes
}
