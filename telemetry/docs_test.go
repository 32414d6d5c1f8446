package telemetry_test

import (
	"os"
	"slices"
	"strings"
	"testing"

	"companion/telemetry"
)

// TestTelemetryDocsTable: docs/telemetry.md's table lists exactly what
// Catalog registers, with the same attributes.
func TestTelemetryDocsTable(t *testing.T) {
	data, err := os.ReadFile("../docs/telemetry.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := map[string]string{}
	for line := range strings.SplitSeq(string(data), "\n") {
		cells := strings.Split(line, "|")
		if len(cells) != 5 || !slices.Contains([]string{"span", "counter", "histogram", "log"}, strings.TrimSpace(cells[1])) {
			continue
		}
		name := strings.Trim(strings.TrimSpace(cells[2]), "`")
		doc[name] = strings.TrimSpace(strings.TrimSpace(cells[1]) + " " + strings.ReplaceAll(strings.TrimSpace(cells[3]), "`", ""))
	}
	code := map[string]string{}
	for _, e := range telemetry.Catalog() {
		code[e.Name] = e.Signal + " " + strings.Join(e.Attrs, ", ")
	}
	for name, want := range code {
		if got, ok := doc[name]; !ok {
			t.Errorf("docs/telemetry.md does not list %s", name)
		} else if got != strings.TrimSpace(want) {
			t.Errorf("docs/telemetry.md: %s is %q, the code says %q", name, got, want)
		}
	}
	for name := range doc {
		if _, ok := code[name]; !ok {
			t.Errorf("docs/telemetry.md lists %s, which the code does not record", name)
		}
	}
}
