package memory

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

func TestTouch(t *testing.T) {
	base := tempDir(t)
	writeTree(t, base, map[string]string{
		".git/":                  "",
		"AGENTS.md":              "root",
		"app/AGENTS.md":          "app",
		"app/ui/GEMINI.md":       "ui @notes.md",
		"app/ui/notes.md":        "ui notes",
		"app/ui/deep/x.go":       "",
		"lib/AGENTS.md":          "lib",
		"lib/inner/AGENTS.md":    "lib inner",
		"lib/inner/AGENTS.md.go": "",
	})
	m, err := Load(context.Background(), Options{}, "", filepath.Join(base, "app"))
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		dir     string
		changed bool
		added   []string // contents in order
	}{
		{"app", false, nil}, // the session root is loaded already
		{"app/ui/deep", true, []string{"ui <!-- begin import: notes.md -->\nui notes"}},
		{"app/ui/deep", false, nil},      // once
		{"app/ui", false, nil},           // on the way, loaded already
		{"lib/inner", false, nil},        // outside the session root
		{"", false, nil},                 // above it
		{"app/../lib", false, nil},       // cleaned: outside
		{"app/nothing/here", false, nil}, // no files
	}
	for _, s := range steps {
		added, changed := m.Touch(filepath.Join(base, s.dir))
		if changed != s.changed || (added == "") == changed {
			t.Errorf("Touch(%s) = %q, %v; want changed %v", s.dir, added, changed, s.changed)
		}
		last := -1
		for _, want := range s.added {
			i := strings.Index(added, want)
			if i <= last {
				t.Errorf("Touch(%s) added %q, want %q in order", s.dir, added, want)
			}
			last = i
		}
	}
	if _, changed := m.Touch("app/ui"); changed {
		t.Error("a relative directory was touched")
	}
	want := []string{"AGENTS.md", "app/AGENTS.md", "app/ui/GEMINI.md"}
	if got := rels(t, base, m.Files()); !slices.Equal(got, want) {
		t.Errorf("files = %q, want %q", got, want)
	}
	if !strings.Contains(m.Text(), "ui notes") {
		t.Errorf("text lacks the touched file:\n%s", m.Text())
	}
}

func TestTouchWholePathOnce(t *testing.T) {
	base := tempDir(t)
	writeTree(t, base, map[string]string{"a/AGENTS.md": "a", "a/b/GEMINI.md": "b", "a/b/c/AGENTS.md": "c"})
	m, err := Load(context.Background(), Options{}, "", base)
	if err != nil {
		t.Fatal(err)
	}
	// Many tools touching the same directory at once: the files come back
	// exactly once in all.
	var (
		wg  sync.WaitGroup
		mu  sync.Mutex
		all []string
	)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if added, ok := m.Touch(filepath.Join(base, "a/b/c")); ok {
				mu.Lock()
				all = append(all, added)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(all) != 1 {
		t.Fatalf("%d touches added files, want 1: %q", len(all), all)
	}
	a, b, c := strings.Index(all[0], "\na\n"), strings.Index(all[0], "\nb\n"), strings.Index(all[0], "\nc\n")
	if a < 0 || b < a || c < b {
		t.Errorf("added not in order a, b, c:\n%s", all[0])
	}
}
