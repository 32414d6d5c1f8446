package mcp

import (
	"context"
	"fmt"
	"strings"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// Prompt is a server's prompt template, offered as a slash command.
type Prompt struct {
	Server      string
	Name        string
	Description string
	Arguments   []PromptArgument
}

// PromptArgument is one argument of a prompt.
type PromptArgument struct {
	Name        string
	Description string
	Required    bool
}

// Prompts returns the prompts of every server that listed some, in
// configuration order and each server's order.
func (m *Manager) Prompts() []Prompt {
	var out []Prompt
	for _, s := range m.servers {
		for _, p := range s.listing().prompts {
			pr := Prompt{Server: s.cfg.Name, Name: p.Name, Description: p.Description}
			for _, a := range p.Arguments {
				pr.Arguments = append(pr.Arguments, PromptArgument{Name: a.Name, Description: a.Description, Required: a.Required})
			}
			out = append(out, pr)
		}
	}
	return out
}

// GetPrompt renders prompt name of server with args to the text of its
// messages, ready to send as the user's message. Missing required arguments
// are an error wrapping ErrMissingArgument; the call is bounded by the
// server's timeout.
func (m *Manager) GetPrompt(ctx context.Context, server, name string, args map[string]string) (string, error) {
	s, err := m.server(server)
	if err != nil {
		return "", err
	}
	p, ok := s.prompt(name)
	if !ok {
		return "", fmt.Errorf("%w: %q of server %q", ErrUnknownPrompt, name, server)
	}
	for _, a := range p.Arguments {
		if a.Required && args[a.Name] == "" {
			return "", fmt.Errorf("%w: prompt %q needs %q", ErrMissingArgument, name, a.Name)
		}
	}
	conn, err := s.live()
	if err != nil {
		return "", err
	}
	callCtx, cancel := context.WithTimeout(ctx, s.cfg.timeout())
	defer cancel()
	res, err := conn.client.GetPrompt(callCtx, name, args)
	if err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return "", callError(conn, fmt.Sprintf("MCP prompt %q of server %q", name, server), callCtx, s.cfg.timeout(), err)
	}
	return renderMessages(res.Messages), nil
}

// prompt finds the listed prompt called name.
func (s *server) prompt(name string) (mcpgo.Prompt, bool) {
	for _, p := range s.listing().prompts {
		if p.Name == name {
			return p, true
		}
	}
	return mcpgo.Prompt{}, false
}

// renderMessages joins the messages' content as text. Messages not from the
// user are marked with their role; media become notes.
func renderMessages(msgs []mcpgo.PromptMessage) string {
	parts := make([]string, 0, len(msgs))
	for _, msg := range msgs {
		var b resultBuilder
		b.content(msg.Content)
		text := strings.Join(b.parts, "\n")
		if msg.Role != "" && msg.Role != mcpgo.RoleUser {
			text = fmt.Sprintf("[%s]\n%s", msg.Role, text)
		}
		parts = append(parts, text)
	}
	return strings.Join(parts, "\n\n")
}
