package builtin

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"companion/tools"
)

// declarationBudget bounds the bytes of every built-in tool's description
// and schema together: they are sent with every model request, and the
// first request has a budget (bench/prompt_test.go reports it).
const declarationBudget = 23 << 10

// allBuiltin is every built-in tool with its default options.
func allBuiltin() []tools.Tool {
	all := ReadOnly(ReadOnlyOptions{})
	all = append(all, Editing(EditOptions{})...)
	all = append(all, Extras(ExtraOptions{})...)
	return append(all, Shell(ShellOptions{})...)
}

// TestDescriptionsReviewed checks what the review of the descriptions as
// prompts settled: each tool points to another tool for the cases it is
// not meant for, parameters that take a path, a pattern or a URL show an
// example, and all declarations stay within their byte budget.
func TestDescriptionsReviewed(t *testing.T) {
	all := allBuiltin()
	var names []string
	for _, tool := range all {
		names = append(names, tool.Name())
	}
	total := 0
	for _, tool := range all {
		desc := tool.Description()
		total += len(desc) + len(tool.Schema())
		others := slices.DeleteFunc(slices.Clone(names), func(n string) bool { return n == tool.Name() })
		// write_todos has no other tool to point to: it says when to skip it.
		if tool.Name() != "write_todos" && !slices.ContainsFunc(others, func(n string) bool { return strings.Contains(desc, "`"+n+"`") }) {
			t.Errorf("%s: the description names no other tool to use instead", tool.Name())
		}
		var s struct {
			Properties map[string]struct {
				Description string `json:"description"`
			} `json:"properties"`
		}
		if err := json.Unmarshal(tool.Schema(), &s); err != nil {
			t.Fatalf("%s: %v", tool.Name(), err)
		}
		for name, p := range s.Properties {
			if takesExample(name) && !strings.Contains(p.Description, "e.g.") {
				t.Errorf("%s.%s: no example in %q", tool.Name(), name, p.Description)
			}
		}
	}
	if total > declarationBudget {
		t.Errorf("the built-in declarations take %d bytes; the budget is %d", total, declarationBudget)
	}
}

// takesExample reports whether a parameter's value is easier to get right
// with an example: paths, patterns, URLs and ids.
func takesExample(param string) bool {
	switch param {
	case "pattern", "include", "exclude", "paths", "ignore", "url", "id", "dir_path", "file_path":
		return true
	}
	return false
}
