package mcp

import (
	"strings"
	"testing"
)

func TestDescribeServer(t *testing.T) {
	tests := []struct {
		st   ServerStatus
		want string
	}{
		{ServerStatus{Name: "git", Transport: TransportStdio, State: StateReady, Tools: []string{"status", "diff"}, Prompts: []string{"review"}},
			"\n### git (stdio): ready\n- Tools (2): `status`, `diff`\n- Prompts (1): `review`\n"},
		{ServerStatus{Name: "web", Transport: TransportHTTP, State: StateRestarting, Restarts: 2, LastError: "connection\nrefused"},
			"\n### web (http): restarting…\n- Restarts: 2\n- Tools: none\n- Last error: connection refused\n"},
		{ServerStatus{Name: "x", Transport: TransportSSE, State: StateFailed, LastError: "boom"},
			"\n### x (sse): failed\n- Tools: none\n- Last error: boom\n"},
	}
	for _, tt := range tests {
		var b strings.Builder
		describeServer(&b, tt.st)
		if b.String() != tt.want {
			t.Errorf("describeServer(%s) =\n%q\nwant\n%q", tt.st.Name, b.String(), tt.want)
		}
	}
}
