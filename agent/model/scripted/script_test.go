package scripted

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseScript(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, js string
		errHas   string // "" means valid
	}{
		{"full", `{"turns": [{"match": "x", "chunks": [{"thought": "t"}, {"text": "a"},
			{"functionCall": {"name": "read_file", "args": {"file_path": "a.txt"}}, "thoughtSignature": "s"}],
			"delayMs": 1, "finishReason": "STOP", "usage": {"promptTokens": 1, "outputTokens": 2}}],
			"fallback": "echo"}`, ""},
		{"errors", `{"turns": [{"status": 429, "message": "slow down", "retryDelay": "10ms", "retryAfter": "1", "times": 3}], "fallback": "error"}`, ""},
		{"empty", `{}`, ""},
		{"unknown field", `{"turns": [{"finishReson": "STOP"}]}`, "finishReson"},
		{"bad fallback", `{"fallback": "cry"}`, "fallback"},
		{"two kinds in a chunk", `{"turns": [{"chunks": [{"text": "a", "thought": "b"}]}]}`, "exactly one"},
		{"empty chunk", `{"turns": [{"chunks": [{}]}]}`, "exactly one"},
		{"nameless call", `{"turns": [{"chunks": [{"functionCall": {"args": {}}}]}]}`, "no name"},
		{"not an error status", `{"turns": [{"status": 200}]}`, "status 200"},
		{"bad retry delay", `{"turns": [{"status": 429, "retryDelay": "soon"}]}`, "retryDelay"},
		{"block with chunks", `{"turns": [{"blockReason": "SAFETY", "chunks": [{"text": "a"}]}]}`, "blockReason"},
		{"negative times", `{"turns": [{"times": -1}]}`, "negative"},
		{"not json", `turns:`, "invalid character"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, err := ParseScript([]byte(tt.js))
			if tt.errHas == "" {
				if err != nil || s == nil {
					t.Fatalf("ParseScript = %v, %v; want a script", s, err)
				}
				return
			}
			if !errors.Is(err, ErrBadScript) || !strings.Contains(err.Error(), tt.errHas) {
				t.Errorf("ParseScript error = %v, want ErrBadScript mentioning %q", err, tt.errHas)
			}
		})
	}
}

func TestLoadScript(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	if err := os.WriteFile(good, []byte(`{"turns": [{"chunks": [{"text": "hi"}]}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := LoadScript(good)
	if err != nil || len(s.Turns) != 1 || s.Turns[0].Chunks[0].Text != "hi" {
		t.Fatalf("LoadScript(good) = %+v, %v", s, err)
	}
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"turns": 3}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadScript(bad); !errors.Is(err, ErrBadScript) || !strings.Contains(err.Error(), bad) {
		t.Errorf("LoadScript(bad) = %v, want ErrBadScript naming the file", err)
	}
	if _, err := LoadScript(filepath.Join(dir, "missing.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("LoadScript(missing) = %v, want os.ErrNotExist", err)
	}
}

func TestDemoScriptIsValid(t *testing.T) {
	t.Parallel()
	data, err := json.Marshal(DemoScript())
	if err != nil {
		t.Fatal(err)
	}
	s, err := ParseScript(data)
	if err != nil {
		t.Fatalf("DemoScript does not survive ParseScript: %v", err)
	}
	var calls int
	for _, turn := range s.Turns {
		for _, c := range turn.Chunks {
			if c.FunctionCall != nil && c.FunctionCall.Name == "list_directory" {
				calls++
			}
		}
	}
	if calls != 1 || s.Fallback != FallbackEcho {
		t.Errorf("DemoScript has %d list_directory calls and fallback %q, want 1 and echo", calls, s.Fallback)
	}
}

func TestReadmeExampleParses(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(readme), "```json\n")
	example, _, ok2 := strings.Cut(rest, "```")
	if !ok || !ok2 {
		t.Fatal("README.md has no ```json example")
	}
	if _, err := ParseScript([]byte(example)); err != nil {
		t.Errorf("the README example does not parse: %v", err)
	}
}
