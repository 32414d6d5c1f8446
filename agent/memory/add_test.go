package memory

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWithFact(t *testing.T) {
	tests := []struct {
		name, text, fact, want string
	}{
		{"empty file", "", "likes tabs", "## Added Memories\n\n- likes tabs\n"},
		{"no section", "# Me\nSome text.\n\n", "likes tabs", "# Me\nSome text.\n\n## Added Memories\n\n- likes tabs\n"},
		{"section at the end", "# Me\n\n## Added Memories\n\n- one\n", "two", "# Me\n\n## Added Memories\n\n- one\n- two\n"},
		{"section then another heading", "## Added Memories\n- one\n\n## Other\ntext\n", "two",
			"## Added Memories\n- one\n- two\n\n## Other\ntext\n"},
		{"section directly before a heading", "## Added Memories\n- one\n# Next\n", "two",
			"## Added Memories\n- one\n- two\n\n# Next\n"},
		{"empty section", "## Added Memories\n## Next\n", "one", "## Added Memories\n\n- one\n\n## Next\n"},
		{"any heading ends the section", "## Added Memories\n- one\n### Sub\n", "two",
			"## Added Memories\n- one\n- two\n\n### Sub\n"},
		{"heading in a code fence is not the section", "```\n## Added Memories\n```\n", "one",
			"```\n## Added Memories\n```\n\n## Added Memories\n\n- one\n"},
		{"CRLF kept", "# Me\r\n\r\n## Added Memories\r\n- one\r\n", "two", "# Me\r\n\r\n## Added Memories\r\n- one\r\n- two\r\n"},
		{"fact made one item", "", "  - multi\nline\tfact  ", "## Added Memories\n\n- multi line fact\n"},
		{"#hashtag is no heading", "## Added Memories\n- one\n#tag\n", "two", "## Added Memories\n- one\n#tag\n- two\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := withFact(tt.text, tt.fact)
			if err != nil || got != tt.want {
				t.Errorf("withFact = %q, %v\nwant %q", got, err, tt.want)
			}
		})
	}
	for _, fact := range []string{"", " \n ", "- "} {
		if _, err := withFact("x", fact); !errors.Is(err, ErrEmptyFact) {
			t.Errorf("fact %q: %v", fact, err)
		}
	}
}

func TestAddUserMemory(t *testing.T) {
	base := tempDir(t)
	user := filepath.Join(base, "config", "companion") // does not exist yet
	m, err := Load(context.Background(), Options{FileNames: []string{"GEMINI.md", "AGENTS.md"}, UserDirs: []string{user}}, "", base)
	if err != nil {
		t.Fatal(err)
	}
	for _, fact := range []string{"first fact", "second fact"} {
		if err := m.AddUserMemory(user, fact); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(filepath.Join(user, "GEMINI.md"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "## Added Memories\n\n- first fact\n- second fact\n"; string(data) != want {
		t.Errorf("file = %q, want %q", data, want)
	}
	if err := m.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(m.Text(), "- second fact") {
		t.Errorf("refresh did not pick the fact up:\n%s", m.Text())
	}
	if err := m.AddUserMemory(user, "  "); !errors.Is(err, ErrEmptyFact) {
		t.Errorf("empty fact: %v", err)
	}
}

func TestAppendFactKeepsMode(t *testing.T) {
	p := filepath.Join(tempDir(t), "AGENTS.md")
	if err := os.WriteFile(p, []byte("# Mine\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := AppendFact(p, "fact"); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(p)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("mode = %v, %v; want 0600", fi.Mode(), err)
	}
	if err := AppendFact(filepath.Join(p, "under-a-file.md"), "x"); err == nil {
		t.Error("writing below a regular file succeeded")
	}
}
