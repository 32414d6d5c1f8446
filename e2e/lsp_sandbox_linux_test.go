package e2e

import (
	"fmt"
	"strings"
	"testing"

	"companion/internal/testkit/testio"
	"companion/tools/sandbox"
)

// TestLSPServerSandboxNoNetwork: with the command sandbox on, a language
// server runs in it without network: a server that dials a loopback
// listener first reaches it only with the sandbox off (the control).
func TestLSPServerSandboxNoNetwork(t *testing.T) {
	t.Parallel()
	needBackend(t, "bwrap")
	for _, tt := range []struct {
		name    string
		flags   []string
		connect int32
	}{
		{"sandboxed", []string{"--sandbox", "workspace-write"}, 0},
		{"sandbox off", nil, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ln := testio.Listen(t, false)
			ws := workspace(t, goModule())
			server := fmt.Sprintf("echo hi >/dev/tcp/127.0.0.1/%d; exit 1", ln.Port)
			settings := fmt.Sprintf(`{"lsp":{"gopls":{"command":["bash","-c",%q]}}}`, server)
			e := withSettings(t, env(t, sandbox.BackendEnv+"=bwrap"), settings)
			sc := script(t, `{"turns":[{"chunks":[`+modelCall("write_file", map[string]any{"file_path": "main.go", "content": unusedVar})+`]},
				{"match":"functionResponse","chunks":[{"text":"Edited."}]}],"fallback":"error"}`)
			o := runCompanion(t, runOpts{env: e, dir: ws, args: append([]string{"-p", "edit", "--script", sc, "-y"}, tt.flags...)})
			if o.Code != 0 || !strings.Contains(o.Stdout, "Edited.") {
				t.Fatalf("run:\n%s", o)
			}
			if got := ln.Accepted(); got != tt.connect {
				t.Errorf("the server connected %d times, want %d", got, tt.connect)
			}
		})
	}
}
