package host

import (
	"context"
	"os"

	"companion/agent"
	"companion/tools/mcp"
)

// mcpAuth is the OAuth support of session s's MCP servers: grants in the
// state directory, the authorization URL told to the user through the
// session's observer (a notice in an editor) and opened in a browser.
// Authorization starts at a server's first 401; the session goes on
// meanwhile and the server's tools appear once it is authorised.
func (h *Host) mcpAuth(s *Session) *mcp.Auth {
	getenv := h.opts.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	return mcp.NewAuth(mcp.AuthOptions{StateDir: h.Config().StateDir, ClientName: h.opts.Name, Log: h.log,
		Open: mcp.OpenBrowser(getenv),
		Show: func(ctx context.Context, server, url string) {
			text := "MCP server " + server + " needs authorization; its tools appear once it has it. " +
				"Open this link to authorise companion: <" + url + ">"
			if s.Ports.Elicit != nil {
				go askURL(ctx, s.Ports, server, url, text)
				return
			}
			notify(ctx, s.Ports, server, url, text)
		}})
}

// askURL sends the user to the authorization page through a URL-mode
// elicitation; a client that cannot gets the notice instead. The answer
// does not matter: the authorization ends at the loopback redirect.
func askURL(ctx context.Context, p Ports, server, url, text string) {
	q := mcp.Elicitation{Server: server, Message: "authorise companion to use this server", URL: url}
	if _, err := p.Elicit(ctx, q); err != nil && ctx.Err() == nil {
		notify(ctx, p, server, url, text)
	}
}

// notify tells the user the authorization link as a notice.
func notify(ctx context.Context, p Ports, server, url, text string) {
	switch {
	case p.Sink != nil:
		p.Sink.Emit(context.WithoutCancel(ctx), agent.Notice{Level: "warning", Text: text})
	case p.Observer != nil:
		p.Observer.MCPFailed(server, "it needs authorization. Open this link to authorise companion: "+url)
	}
}
