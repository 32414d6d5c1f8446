package e2e

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// telScript has the model call read_file once, then answer.
const telScript = `{"turns":[
 {"chunks":[{"functionCall":{"name":"read_file","args":{"file_path":"notes.txt"}}}],"usage":{"promptTokens":12,"outputTokens":4}},
 {"match":"functionResponse","chunks":[{"text":"All read."}],"usage":{"promptTokens":20,"outputTokens":3}}
]}`

// telRecords reads the telemetry outfile: every line must be one JSON
// object.
func telRecords(t *testing.T, path string) []map[string]any {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []map[string]any
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 4<<20)
	for sc.Scan() {
		var v map[string]any
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatalf("telemetry line %d is not a JSON object: %v\n%s", len(out)+1, err, sc.Text())
		}
		out = append(out, v)
	}
	return out
}

// telSpanNames lists the names of the span records (stdouttrace's
// "Name" key).
func telSpanNames(recs []map[string]any) map[string]int {
	names := map[string]int{}
	for _, r := range recs {
		if n, ok := r["Name"].(string); ok {
			names[n]++
		}
	}
	return names
}

// TestTelemetryRunOutfile: `companion run --telemetry --telemetry-outfile`
// writes the turn, its model requests and the tool call as JSON lines,
// with the metrics and the session start, and without the prompt's text;
// without --telemetry no file appears.
func TestTelemetryRunOutfile(t *testing.T) {
	t.Parallel()
	ws := workspace(t, map[string]string{"notes.txt": "remember the milk"})
	out := filepath.Join(t.TempDir(), "telemetry.jsonl")
	sc := script(t, telScript)
	o := runCompanion(t, runOpts{dir: ws, args: []string{"-p", "read TEL-PROMPT-SECRET notes", "--script", sc,
		"--telemetry", "--telemetry-outfile", out}})
	if o.Code != 0 {
		t.Fatalf("run failed: %s", o)
	}
	recs := telRecords(t, out)
	names := telSpanNames(recs)
	if names["companion.turn"] != 1 || names["companion.model.request"] != 2 || names["companion.tool.call"] != 1 {
		t.Fatalf("spans = %v", names)
	}
	data, _ := os.ReadFile(out)
	for _, want := range []string{"companion.turn.count", "companion.session.start", `"session.id"`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("the outfile has no %s", want)
		}
	}
	if strings.Contains(string(data), "TEL-PROMPT-SECRET") {
		t.Error("the prompt's text was exported without logPrompts")
	}
	off := filepath.Join(t.TempDir(), "off.jsonl")
	o = runCompanion(t, runOpts{dir: ws, args: []string{"-p", "read notes", "--script", script(t, telScript),
		"--telemetry-outfile", off}})
	if o.Code != 0 {
		t.Fatalf("run failed: %s", o)
	}
	if _, err := os.Stat(off); err == nil {
		t.Error("telemetry off, yet the outfile was written")
	}
}
