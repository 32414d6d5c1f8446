package lsp

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
)

// onPath is a lookPath that finds only the named commands.
func onPath(names ...string) func(string) (string, error) {
	return func(cmd string) (string, error) {
		if slices.Contains(names, cmd) || strings.HasPrefix(cmd, "/") {
			return "/bin/" + cmd, nil
		}
		return "", errors.New("not found")
	}
}

func TestResolve(t *testing.T) {
	tests := []struct {
		name          string
		user, project string
		path          []string
		check         func(t *testing.T, byName map[string]Server, problems []string)
	}{
		{"defaults apply only when on PATH", "", "", []string{"gopls"}, func(t *testing.T, s map[string]Server, _ []string) {
			if s["gopls"].Path == "" || s["clangd"].Path != "" {
				t.Errorf("gopls path %q, clangd path %q", s["gopls"].Path, s["clangd"].Path)
			}
		}},
		{"basedpyright is preferred", "", "", []string{"basedpyright-langserver"}, func(t *testing.T, s map[string]Server, _ []string) {
			if s["pyright"].Command != "basedpyright-langserver" || s["pyright"].Path == "" {
				t.Errorf("pyright = %+v", s["pyright"])
			}
		}},
		{"a command list in OpenCode's shape", `{"gopls":{"command":["gopls","serve"],"env":{"A":"1"}}}`, "", []string{"gopls"},
			func(t *testing.T, s map[string]Server, _ []string) {
				g := s["gopls"]
				if g.Command != "gopls" || !slices.Equal(g.Args, []string{"serve"}) || g.Env["A"] != "1" || !g.Serves("x.go") {
					t.Errorf("gopls = %+v", g)
				}
			}},
		{"a new server by languages", `{"zls":{"command":"zls","extensions":["zig"]},"tsx":{"command":"ts","languages":["TypeScript"]}}`, "", nil,
			func(t *testing.T, s map[string]Server, _ []string) {
				if !s["zls"].Serves("a.zig") || !s["tsx"].Serves("a.ts") || s["tsx"].Serves("a.go") {
					t.Errorf("zls %+v, tsx %+v", s["zls"], s["tsx"])
				}
			}},
		{"disabled removes a default", `{"gopls":{"disabled":true}}`, "", []string{"gopls"}, func(t *testing.T, s map[string]Server, _ []string) {
			if _, ok := s["gopls"]; ok {
				t.Error("gopls still there")
			}
		}},
		{"a project's server is marked", "", `{"mine":{"command":"mine","extensions":[".x"]}}`, nil, func(t *testing.T, s map[string]Server, _ []string) {
			if !s["mine"].Project || s["gopls"].Project {
				t.Errorf("mine %+v, gopls %+v", s["mine"], s["gopls"])
			}
		}},
		{"broken entries are problems", `{"x":{"command":1},"y":{"command":"y"}}`, `[1]`, nil, func(t *testing.T, s map[string]Server, p []string) {
			if len(p) != 3 || s["x"].Name != "" || s["y"].Name != "" {
				t.Errorf("problems %q, servers %v", p, s)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			servers, problems := Resolve(json.RawMessage(tt.user), json.RawMessage(tt.project), onPath(tt.path...))
			byName := map[string]Server{}
			for _, s := range servers {
				byName[s.Name] = s
			}
			tt.check(t, byName, problems)
		})
	}
}

func TestMissing(t *testing.T) {
	servers, _ := Resolve(nil, nil, onPath())
	for _, s := range servers {
		if s.Name == "gopls" {
			want := "gopls is not installed (gopls is not on PATH); install it with: go install golang.org/x/tools/gopls@latest"
			if got := s.Missing(); got != want {
				t.Errorf("Missing() = %q, want %q", got, want)
			}
		}
	}
}

func TestRootFor(t *testing.T) {
	gopls := Server{RootMarkers: []string{"go.mod"}}
	files := map[string]bool{"/ws/sub/go.mod": true, "/go.mod": true}
	exists := func(p string) bool { return files[p] }
	tests := []struct{ path, want string }{
		{"/ws/sub/pkg/a.go", "/ws/sub"},
		{"/ws/other/a.go", "/ws"}, // no marker under the session root: the root itself
	}
	for _, tt := range tests {
		if got := rootFor(gopls, tt.path, "/ws", exists); got != tt.want {
			t.Errorf("rootFor(%s) = %s, want %s", tt.path, got, tt.want)
		}
	}
}
