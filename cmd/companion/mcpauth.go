package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"time"

	"companion/config"
	"companion/mcpclient/oauth"
)

// mcpAuthTimeout bounds `companion mcp auth`: the user has that long to
// answer in the browser.
const mcpAuthTimeout = 10 * time.Minute

// opener opens an authorization URL in a browser.
type opener func(ctx context.Context, url string) error

// runMCPAuth is `companion mcp auth NAME` (authorize companion with a
// remote server, in the terminal) and `companion mcp logout NAME` (forget
// its grant).
func runMCPAuth(sub string, rest []string, cfg config.Config, stdout, stderr io.Writer, open opener) int {
	if len(rest) != 1 {
		fmt.Fprintf(stderr, "Usage: companion mcp %s NAME\n", sub)
		return 2
	}
	name := rest[0]
	store := oauth.NewStore(oauth.StorePath(cfg.StateDir))
	if sub == "logout" {
		ok, err := store.Delete(name)
		switch {
		case err != nil:
			fmt.Fprintf(stderr, "companion: %v\n", err)
			return 1
		case !ok:
			fmt.Fprintf(stdout, "no authorization stored for %s\n", name)
		default:
			fmt.Fprintf(stdout, "logged out of %s\n", name)
		}
		return 0
	}
	s, err := findMCPServer(cfg, name)
	if err == nil {
		err = authorizeServer(name, s, store, stderr, open)
	}
	if err != nil {
		fmt.Fprintf(stderr, "companion: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "authorised %s (grant in %s)\n", name, store.Path())
	return 0
}

// authorizeServer runs the authorization flow of server name in the
// terminal: the URL on stderr, the browser opened, the grant saved.
func authorizeServer(name string, s config.MCPServer, store *oauth.Store, stderr io.Writer, open opener) error {
	u := serverURL(s)
	if u == "" || (s.OAuth != nil && s.OAuth.Enabled != nil && !*s.OAuth.Enabled) {
		return fmt.Errorf("%s is not a remote server that uses OAuth", name)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, mcpAuthTimeout)
	defer cancel()
	f := &oauth.Flow{ServerURL: u, Settings: oauthSettings(s.OAuth), ResourceMetadataURL: challenge(ctx, u),
		ClientName: "companion", Store: store, Show: func(ctx context.Context, authURL string) {
			fmt.Fprintf(stderr, "To authorise companion with %s, open this link (a browser is being opened):\n%s\n", name, authURL)
			if err := open(ctx, authURL); err != nil {
				fmt.Fprintf(stderr, "(could not open a browser: %v)\n", err)
			}
		}}
	g, err := f.Run(ctx)
	if err != nil {
		return fmt.Errorf("authorizing %s: %w", name, err)
	}
	return store.Save(name, g)
}

// challenge asks the server at u without a token and returns the
// resource_metadata of its 401 challenge, "" when it gives none.
func challenge(ctx context.Context, u string) string {
	body := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"companion","version":"auth"}}}`
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, bytes.NewReader([]byte(body)))
	if err != nil {
		return ""
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return ""
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4096))
	if resp.StatusCode != http.StatusUnauthorized {
		return ""
	}
	return oauth.ResourceMetadataURL(resp.Header.Get("WWW-Authenticate"))
}

// findMCPServer is server name from the user's or the project's settings
// (the project's wins, as when a session loads them).
func findMCPServer(cfg config.Config, name string) (config.MCPServer, error) {
	wd, _ := os.Getwd()
	var found *config.MCPServer
	for _, p := range []string{cfg.SettingsPath, config.ProjectSettingsPath(wd)} {
		servers, _, err := config.ListMCPServers(p)
		if err != nil {
			return config.MCPServer{}, err
		}
		if s, ok := servers[name]; ok {
			found = &s
		}
	}
	if found == nil {
		return config.MCPServer{}, errors.New("no MCP server called " + name + " in the settings")
	}
	return *found, nil
}

// serverURL is a settings entry's URL, "" for a stdio server.
func serverURL(s config.MCPServer) string {
	if s.Command != "" {
		return ""
	}
	if s.HTTPURL != "" {
		return s.HTTPURL
	}
	return s.URL
}

// oauthSettings converts a settings oauth block.
func oauthSettings(o *config.MCPOAuth) oauth.Settings {
	if o == nil {
		return oauth.Settings{}
	}
	return oauth.Settings{ClientID: o.ClientID, ClientSecret: o.ClientSecret, AuthorizationURL: o.AuthorizationURL,
		TokenURL: o.TokenURL, Scopes: o.Scopes, RedirectURI: o.RedirectURI}
}

// authColumn is the auth state `companion mcp list` shows for a remote
// server ("" for a stdio one, or one with its own Authorization header).
func authColumn(store *oauth.Store, name string, s config.MCPServer) string {
	u := serverURL(s)
	if u == "" || (s.OAuth != nil && s.OAuth.Enabled != nil && !*s.OAuth.Enabled) {
		return ""
	}
	for k := range s.Headers {
		if strings.EqualFold(k, "Authorization") {
			return ""
		}
	}
	g, err := store.Load(name, u)
	st := oauth.GrantState(g, time.Now())
	if err == nil && st == oauth.StateNone && s.OAuth != nil {
		st = oauth.StateNeedsAuth // configured for OAuth, never authorised
	}
	return "\tauth: " + string(st)
}
