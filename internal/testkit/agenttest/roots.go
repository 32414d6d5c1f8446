package agenttest

import (
	"os"
	"path/filepath"
	"testing"

	"companion/tools"
)

// Workspace is the roots of a new temporary folder whose AGENTS.md says
// "Use tabs.": the project memory a test session loads.
func Workspace(t testing.TB) *tools.Roots {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "AGENTS.md"), []byte("Use tabs."), 0o644); err != nil {
		t.Fatal(err)
	}
	roots, err := tools.NewRoots(dir)
	if err != nil {
		t.Fatal(err)
	}
	return roots
}
