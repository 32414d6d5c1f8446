package mcp

import (
	"fmt"
	"strings"
	"testing"
)

func TestResourcePage(t *testing.T) {
	many := make([]Resource, 120)
	for i := range many {
		many[i] = Resource{Server: "s", URI: fmt.Sprintf("s://%03d", i), Name: "n", Size: -1}
	}
	sized := []Resource{{Server: "docs", URI: "docs://a", Name: "A\nB", MIMEType: "text/markdown", Size: 42, Description: "two\n  lines"}}
	tests := []struct {
		name       string
		rs         []Resource
		offset     int
		has, lacks []string
	}{
		{"none", nil, 0, []string{"No MCP server offers resources."}, nil},
		{"one, sized, folded onto a line", sized, 0,
			[]string{"Resources 1-1 of 1", "- docs | docs://a | A B | text/markdown | 42 bytes | two lines"}, []string{"more:"}},
		{"first page", many, 0, []string{"Resources 1-50 of 120", "s://000", "s://049", "70 more: call list_mcp_resources again with offset 50."},
			[]string{"s://050"}},
		{"last page", many, 100, []string{"Resources 101-120 of 120", "s://100", "s://119"}, []string{"s://099", "more:"}},
		{"past the end", many, 120, []string{"There are 120 resources; offset 120 is past the end."}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := resourcePage(tt.rs, tt.offset)
			for _, h := range tt.has {
				if !strings.Contains(got, h) {
					t.Errorf("page lacks %q:\n%s", h, got)
				}
			}
			for _, l := range tt.lacks {
				if strings.Contains(got, l) {
					t.Errorf("page has %q:\n%s", l, got)
				}
			}
		})
	}
}
