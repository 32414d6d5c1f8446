package mcp

import (
	"context"
	"net/url"
	"path/filepath"
	"slices"
	"time"

	"companion/mcpclient"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// rootsNotifyTimeout bounds telling one server its roots changed.
const rootsNotifyTimeout = 10 * time.Second

// rootsHandler answers roots/list with the session's roots now.
func rootsHandler(roots func() []string) mcpclient.RootsHandler {
	return func(context.Context) ([]mcpgo.Root, error) {
		return rootList(roots()), nil
	}
}

// rootList turns directories into MCP roots (file:// URIs, named by their
// base name).
func rootList(dirs []string) []mcpgo.Root {
	out := make([]mcpgo.Root, 0, len(dirs))
	for _, d := range dirs {
		u := url.URL{Scheme: "file", Path: filepath.ToSlash(d)}
		out = append(out, mcpgo.Root{URI: u.String(), Name: filepath.Base(d)})
	}
	return out
}

// RootsChanged tells every connected server that the session's roots
// changed (notifications/roots/list_changed), when they differ from what
// it last saw; the servers then ask roots/list again. It returns at once:
// the notices are sent in the background.
func (m *Manager) RootsChanged() {
	if m.opts.Roots == nil {
		return
	}
	now := m.opts.Roots()
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed || !m.started || slices.Equal(now, m.sentRoots) {
		return
	}
	m.sentRoots = now
	runCtx := m.runCtx
	for _, s := range m.servers {
		c, err := s.live()
		if err != nil {
			continue
		}
		m.wg.Add(1)
		go func() {
			defer m.wg.Done()
			ctx, cancel := context.WithTimeout(runCtx, rootsNotifyTimeout)
			defer cancel()
			if err := c.client.RootsChanged(ctx); err != nil {
				m.opts.Log.Debug("mcp: roots change not sent", "server", s.cfg.Name, "err", err)
			}
		}()
	}
}

// serverRequests are the client options that answer a server's roots,
// sampling and elicitation requests and declare those capabilities, as o
// allows.
func serverRequests(server string, o *Options) []mcpclient.Option {
	var caps mcpgo.ClientCapabilities
	var opts []mcpclient.Option
	if o.Roots != nil {
		caps.Roots = &struct {
			ListChanged bool `json:"listChanged,omitempty"`
		}{ListChanged: true}
		opts = append(opts, mcpclient.WithRoots(rootsHandler(o.Roots)))
	}
	if o.Sampler != nil {
		caps.Sampling = &mcpgo.SamplingCapability{}
		opts = append(opts, mcpclient.WithSampling(samplingHandler(server, o.Sampler)))
	}
	if o.Elicit != nil {
		caps.Elicitation = &mcpgo.ElicitationCapability{Form: &struct{}{}, URL: &struct{}{}}
		opts = append(opts, mcpclient.WithElicitation(elicitHandler{server: server, ask: o.Elicit}.Elicit))
	}
	return append(opts, mcpclient.WithCapabilities(caps))
}
