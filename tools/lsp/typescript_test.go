package lsp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"companion/tools"
)

// typescriptServer is the typescript-language-server of testdata/npm, or
// a skip when it is not installed there.
func typescriptServer(t *testing.T) string {
	t.Helper()
	bin, err := filepath.Abs(filepath.Join("testdata", "npm", "node_modules", ".bin", "typescript-language-server"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(bin); err != nil {
		t.Skip("typescript-language-server is not installed: npm ci --no-audit --no-fund --prefix tools/lsp/testdata/npm (make test-deps does)")
	}
	return bin
}

// TestTypeScriptTypeError: typescript-language-server, configured by
// path in the "lsp" setting, reports a type error with its message. It
// takes seconds: tsserver loads TypeScript's lib.d.ts files first (about
// 9 s on a loaded 2-core machine), hence the longer cold wait.
func TestTypeScriptTypeError(t *testing.T) {
	t.Parallel()
	bin := typescriptServer(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "tsconfig.json"), []byte(`{"compilerOptions":{"strict":true}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "a.ts")
	text := "const n: number = \"text\";\nexport { n };\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	settings, _ := json.Marshal(map[string]any{"typescript-language-server": map[string]any{"command": []string{bin, "--stdio"}}})
	servers, problems := Resolve(settings, nil, nil)
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	roots, err := tools.NewRoots(dir)
	if err != nil {
		t.Fatal(err)
	}
	s := NewPool(PoolOptions{}).Session(SessionOptions{Servers: servers, Roots: roots, ColdWait: time.Minute})
	defer s.Close()
	list, ok := s.Diagnose(context.Background(), path, text)
	var msgs []string
	for _, d := range list {
		msgs = append(msgs, d.Message)
	}
	if !ok || !strings.Contains(strings.Join(msgs, "\n"), "Type 'string' is not assignable to type 'number'") {
		t.Errorf("diagnostics = %q (ok %v), want the type error", msgs, ok)
	}
}
