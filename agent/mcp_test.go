package agent

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// authMCP is fakeMCP with /mcp auth.
type authMCP struct {
	fakeMCP
	asked []string
}

func (a *authMCP) Describe() string { return "servers described" }

func (a *authMCP) Authorize(_ context.Context, name string) (string, error) {
	a.asked = append(a.asked, name)
	if name == "nope" {
		return "", errors.New("unknown server")
	}
	return "open https://as.example/authorize?x=1", nil
}

func TestMCPAuthCommand(t *testing.T) {
	tests := []struct {
		arg, want string
	}{
		{"", "servers described"},
		{"auth remote", "open https://as.example/authorize?x=1"},
		{"auth", "Usage: /mcp auth NAME"},
		{"auth nope", "Cannot authorise nope: unknown server"},
	}
	srv := &authMCP{}
	s, _ := newTestSession(t, &fakeModel{}, func(o *Options) { o.MCP = srv })
	for _, tt := range tests {
		if got := s.cmds.mcpCommand(t.Context(), tt.arg); !strings.Contains(got, tt.want) {
			t.Errorf("/mcp %s = %q, want %q", tt.arg, got, tt.want)
		}
	}
	if strings.Join(srv.asked, ",") != "remote,nope" {
		t.Errorf("asked = %v", srv.asked)
	}
}
