package hooks

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunRedactsInput checks that a runner made WithRedact hands hooks
// their input with the secret replaced.
func TestRunRedactsInput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	redact := func(b []byte) []byte { return bytes.ReplaceAll(b, []byte("SECRET-1"), []byte("[redacted]")) }
	r := newRunner(AfterTool, sh(`cat > in.json`)).WithRedact(redact)
	in := Input{SessionID: "s", Cwd: dir, ToolName: "run_shell_command",
		Data: map[string]any{"tool_response": map[string]any{"llmContent": "KEY=SECRET-1"}}}
	if _, err := r.Run(context.Background(), AfterTool, in); err != nil {
		t.Fatalf("Run: %v", err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "in.json"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "SECRET-1") || !strings.Contains(string(b), "KEY=[redacted]") {
		t.Errorf("hook input = %s", b)
	}
	if (*Runner)(nil).WithRedact(redact) != nil {
		t.Error("a nil runner must stay nil")
	}
}
