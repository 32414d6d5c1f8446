package mcp

import (
	"reflect"
	"strings"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

func TestAssignNames(t *testing.T) {
	long := strings.Repeat("x", 80)
	tests := []struct {
		name  string
		tools [][2]string // server, tool
		want  []string
	}{
		{name: "plain", tools: [][2]string{{"git", "status"}}, want: []string{"mcp_git_status"}},
		{name: "sanitised", tools: [][2]string{{"my-server", "get.file name/é"}}, want: []string{"mcp_my_server_get_file_name__"}},
		{name: "collision gets a suffix", tools: [][2]string{{"a-b", "c"}, {"a_b", "c"}, {"a.b", "c"}},
			want: []string{"mcp_a_b_c", "mcp_a_b_c_2", "mcp_a_b_c_3"}},
		{name: "cut to 64", tools: [][2]string{{"s", long}}, want: []string{("mcp_s_" + long)[:64]}},
		{name: "cut collision", tools: [][2]string{{"s", long}, {"s", long + "y"}},
			want: []string{("mcp_s_" + long)[:64], ("mcp_s_" + long)[:62] + "_2"}},
		{name: "reserved", tools: [][2]string{{"read", "resource"}}, want: []string{"mcp_read_resource_2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var entries []toolEntry
			for _, st := range tt.tools {
				entries = append(entries, toolEntry{srv: &server{cfg: ServerConfig{Name: st[0]}}, tool: mcpgo.Tool{Name: st[1]}})
			}
			got := assignNames(entries, []string{readResourceName})
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("names = %q, want %q", got, tt.want)
			}
			for _, n := range got {
				if len(n) > maxNameLen || strings.Trim(n, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != "" {
					t.Errorf("name %q is not a valid function name", n)
				}
			}
		})
	}
}
