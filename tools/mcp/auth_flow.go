package mcp

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"companion/mcpclient"
	"companion/mcpclient/oauth"
)

// dialAuthorized dials cfg's server; when it answers 401 and OAuth
// applies, it waits for the user to authorise companion and dials again.
// The session goes on meanwhile: the server's tools appear once it is
// ready.
func dialAuthorized(ctx context.Context, cfg *ServerConfig, o *Options) (*conn, error) {
	c, err := dial(ctx, cfg, o)
	if err == nil || !o.Auth.applies(cfg) || !errors.Is(err, mcpclient.ErrUnauthorized) {
		return c, err
	}
	o.Log.Info("mcp: server needs authorization", "server", cfg.Name)
	if err := o.Auth.authorize(ctx, cfg); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNeedsAuth, err)
	}
	return dial(ctx, cfg, o)
}

// pending returns the wait of server name, made if needed.
func (a *Auth) pending(name string) *pendingAuth {
	a.mu.Lock()
	defer a.mu.Unlock()
	p := a.waiting[name]
	if p == nil {
		p = &pendingAuth{start: make(chan struct{}), shown: make(chan struct{})}
		a.waiting[name] = p
	}
	return p
}

// done forgets the wait p of server name.
func (a *Auth) done(name string, p *pendingAuth) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.waiting[name] == p {
		delete(a.waiting, name)
	}
}

// authorize runs the authorization of cfg's server (after Authorize, when
// Manual) and saves the grant.
func (a *Auth) authorize(ctx context.Context, cfg *ServerConfig) error {
	p := a.pending(cfg.Name)
	defer a.done(cfg.Name, p)
	if a.o.Manual {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-p.start:
		}
	}
	src := a.source(cfg)
	f := &oauth.Flow{HTTP: a.o.HTTP, ServerURL: cfg.URL, Settings: OAuthSettings(cfg),
		ResourceMetadataURL: src.MetadataURL(), ClientName: a.o.ClientName, Store: a.store,
		Show: func(ctx context.Context, url string) { a.show(ctx, cfg.Name, url, p) }}
	g, err := f.Run(ctx)
	if err != nil {
		return err
	}
	if err := a.store.Save(cfg.Name, g); err != nil {
		return err
	}
	src.Authorized()
	return nil
}

// show tells the user the authorization URL and opens the browser.
func (a *Auth) show(ctx context.Context, server, url string, p *pendingAuth) {
	p.shownOnce.Do(func() {
		p.url = url
		close(p.shown)
	})
	if a.o.Show != nil {
		a.o.Show(ctx, server, url)
	}
	if a.o.Open != nil {
		if err := a.o.Open(ctx, url); err != nil && a.o.Log != nil {
			// the URL was shown anyway
			a.o.Log.Warn("mcp oauth: could not open a browser", "server", server, "err", err)
		}
	}
}

// Authorize starts (or shows again) the authorization of server name, for
// /mcp auth NAME, and returns what to tell the user: the URL to open, or
// why there is nothing to do.
func (m *Manager) Authorize(ctx context.Context, name string) (string, error) {
	s, err := m.server(name)
	if err != nil {
		return "", err
	}
	a := m.opts.Auth
	if !a.applies(&s.cfg) {
		return "", fmt.Errorf("%q does not use OAuth (only HTTP and SSE servers without an Authorization header do)", name)
	}
	a.mu.Lock()
	p := a.waiting[name]
	a.mu.Unlock()
	if p == nil {
		switch a.state(&s.cfg) {
		case oauth.StateAuthorized:
			return fmt.Sprintf("%s is already authorised (`companion mcp logout %s` forgets the grant).", name, name), nil
		case oauth.StateNeedsAuth:
			// The server has answered 401 and its connection is on its way
			// to authorize: the wait made here is the one it will take.
			p = a.pending(name)
		default:
			return fmt.Sprintf("%s has not asked for authorization; it is %s.", name, s.status().State), nil
		}
	}
	p.startOnce.Do(func() { close(p.start) })
	select {
	case <-ctx.Done():
		return "", ctx.Err()
	case <-p.shown:
	}
	return fmt.Sprintf("To authorise companion with %s, open:\n%s", name, p.url), nil
}

// AuthState is server name's authorization state: none, authorised, needs
// auth or expired.
func (m *Manager) AuthState(name string) AuthState {
	s, err := m.server(name)
	if err != nil {
		return oauth.StateNone
	}
	return m.opts.Auth.state(&s.cfg)
}

// describeAuth adds server name's authorization state to the /mcp text,
// for a server OAuth applies to.
func (m *Manager) describeAuth(b *strings.Builder, name string) {
	s, err := m.server(name)
	if err != nil || !m.opts.Auth.applies(&s.cfg) {
		return
	}
	st := m.opts.Auth.state(&s.cfg)
	switch st {
	case oauth.StateNeedsAuth, oauth.StateExpired:
		fmt.Fprintf(b, "- Auth: %s (`/mcp auth %s`)\n", st, name)
	default:
		fmt.Fprintf(b, "- Auth: %s\n", st)
	}
}
