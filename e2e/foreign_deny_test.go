package e2e

import (
	"strings"
	"testing"
)

// TestClaudeReadDenyEverywhere: Claude Code's Read(./.env) in
// .claude/settings.json keeps the file's content out of every tool result:
// read_file naming it, and grep, glob and read_many_files searching the
// whole root, in a trusted folder and in one that is not trusted (deny
// rules need no trust). Without the rule the same calls show the secret.
func TestClaudeReadDenyEverywhere(t *testing.T) {
	t.Parallel()
	const secret = "SECRET-IN-ENV"
	calls := []struct {
		name, call string
	}{
		{"read_file", modelCall("read_file", map[string]any{"file_path": ".env"})},
		{"grep over the root", modelCall("grep", map[string]any{"pattern": "SECRET", "dir_path": "."})},
		{"glob over the root", modelCall("glob", map[string]any{"pattern": "**/.env*"})},
		{"read_many_files over the root", modelCall("read_many_files", map[string]any{"paths": []string{"**/*"}})},
	}
	for _, c := range calls {
		for _, trust := range []string{"trusted", "untrusted"} {
			for _, rule := range []bool{true, false} {
				name := c.name + "/" + trust
				if !rule {
					name += "/no rule"
				}
				t.Run(name, func(t *testing.T) {
					t.Parallel()
					files := map[string]string{".env": "TOKEN=" + secret, "notes.txt": "PLAIN-NOTES"}
					if rule {
						files[".claude/settings.json"] = `{"permissions": {"deny": ["Read(./.env)"]}}`
					}
					ws, e := workspace(t, files), env(t)
					if trust == "untrusted" {
						e = withSettings(t, e, `{"folderTrust": {"enabled": true}}`)
					}
					// the answer says whether the secret reached the model
					sc := script(t, `{"turns":[{"match":"`+secret+`","chunks":[{"text":"LEAKED"}]},
						{"match":"functionResponse","chunks":[{"text":"clean"}]},{"chunks":[`+c.call+`]}],"fallback":"error"}`)
					o := runCompanion(t, runOpts{env: e, dir: ws, args: []string{"-p", "go", "--output-format", "json", "--script", sc}})
					r := jsonResult(t, o)
					if len(r.ToolCalls) != 1 {
						t.Fatalf("tool calls %+v\n%s", r.ToolCalls, o)
					}
					out := r.ToolCalls[0].Output
					shown := r.Result == "LEAKED" || strings.Contains(out, secret) || strings.Contains("\n"+out+"\n", "\n.env\n") // glob lists names

					if shown == rule {
						t.Errorf("secret shown = %v with rule = %v: answer %q\n%s", shown, rule, r.Result, out)
					}
				})
			}
		}
	}
}
