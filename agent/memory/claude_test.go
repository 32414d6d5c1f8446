package memory

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
)

// TestClaudeMDByDefault: with no file names set, Claude Code's CLAUDE.md
// is read beside AGENTS.md and GEMINI.md, in the user's folder (such as
// ~/.claude) and in the project.
func TestClaudeMDByDefault(t *testing.T) {
	base := tempDir(t)
	writeTree(t, base, map[string]string{
		"home/claude/CLAUDE.md": "user claude",
		"repo/.git/HEAD":        "ref: refs/heads/main",
		"repo/AGENTS.md":        "agents",
		"repo/CLAUDE.md":        "claude",
		"repo/sub/CLAUDE.md":    "sub claude",
	})
	m, err := Load(context.Background(), Options{UserDirs: []string{filepath.Join(base, "home/claude")}}, "", filepath.Join(base, "repo/sub"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"home/claude/CLAUDE.md", "repo/AGENTS.md", "repo/CLAUDE.md", "repo/sub/CLAUDE.md"}
	if got := rels(t, base, m.Files()); !slices.Equal(got, want) {
		t.Errorf("files %q, want %q", got, want)
	}
}
