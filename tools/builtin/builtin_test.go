package builtin

import (
	"regexp"
	"strings"
	"testing"

	"companion/tools"
)

func TestReadOnlyTools(t *testing.T) {
	want := map[string]tools.Kind{
		"read_file": tools.KindRead, "list_directory": tools.KindSearch, "glob": tools.KindSearch, "grep": tools.KindSearch,
	}
	ts := ReadOnly(ReadOnlyOptions{})
	if len(ts) != len(want) {
		t.Fatalf("ReadOnly returned %d tools, want %d", len(ts), len(want))
	}
	for _, tool := range ts {
		if k, ok := want[tool.Name()]; !ok || tool.Kind() != k {
			t.Errorf("tool %q kind %q; want one of %v", tool.Name(), tool.Kind(), want)
		}
	}
}

func TestDescriptionsShowLimits(t *testing.T) {
	placeholder := regexp.MustCompile(`\{[a-z_]+\}`)
	r := tools.NewRegistry(ReadOnly(ReadOnlyOptions{MaxLines: 123, MaxGrepMatches: 77, MaxGrepFileSize: 2 << 20})...)
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
