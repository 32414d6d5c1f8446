package tools

import (
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestRegistry(t *testing.T) {
	tools := ReadOnly(ReadOnlyOptions{})
	r := NewRegistry(tools[2], tools[0])
	var names []string
	for _, tool := range r.All() {
		names = append(names, tool.Name())
	}
	if want := []string{"glob", "read_file"}; !slices.Equal(names, want) {
		t.Errorf("All() names = %q, want %q", names, want)
	}
	if err := r.Add(tools[1]); err != nil {
		t.Fatal(err)
	}
	if got, ok := r.Get("list_directory"); !ok || got != tools[1] {
		t.Errorf("Get(list_directory) = %v, %v", got, ok)
	}
	if _, ok := r.Get("nope"); ok {
		t.Error("Get(nope) found a tool")
	}
	if err := r.Add(tools[0]); !errors.Is(err, ErrDuplicateTool) {
		t.Errorf("Add(duplicate) = %v, want ErrDuplicateTool", err)
	}
}

func TestReadOnlyTools(t *testing.T) {
	want := map[string]Kind{
		"read_file": KindRead, "list_directory": KindSearch, "glob": KindSearch, "grep": KindSearch,
	}
	tools := ReadOnly(ReadOnlyOptions{})
	if len(tools) != len(want) {
		t.Fatalf("ReadOnly returned %d tools, want %d", len(tools), len(want))
	}
	for _, tool := range tools {
		if k, ok := want[tool.Name()]; !ok || tool.Kind() != k {
			t.Errorf("tool %q kind %q; want one of %v", tool.Name(), tool.Kind(), want)
		}
	}
}

func TestDescriptionsShowLimits(t *testing.T) {
	placeholder := regexp.MustCompile(`\{[a-z_]+\}`)
	r := NewRegistry(ReadOnly(ReadOnlyOptions{MaxLines: 123, MaxGrepMatches: 77, MaxGrepFileSize: 2 << 20})...)
	for name, want := range map[string][]string{
		"read_file": {"At most 123 lines", "longer than 2000 characters", "up to 10.0 MiB"},
		"grep":      {"At most 77 matching lines", "over 2.0 MiB", "longer than 500 characters"},
	} {
		tool, _ := r.Get(name)
		for _, w := range want {
			if !strings.Contains(tool.Description(), w) {
				t.Errorf("%s description lacks %q", name, w)
			}
		}
		if placeholder.MatchString(tool.Description()) {
			t.Errorf("%s description has an unexpanded placeholder:\n%s", name, tool.Description())
		}
	}
}
