package e2e

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"companion/agent/model/scripted"
	"companion/internal/testkit/acptest"
)

// TestWriteFilePeakRSS writes a file of COMPANION_WRITE_MB megabytes
// (unset: skipped, it is a measurement) with write_file through the real
// binary and the Gemini provider, and logs the agent's peak RSS as a
// multiple of the content; COMPANION_WRITE_VERTEX=1 sends it through
// Vertex AI (express mode).
func TestWriteFilePeakRSS(t *testing.T) {
	content := writePeakContent(t)
	srv := scriptedModel(t, writePeakScript(content))
	vars := []string{"GEMINI_API_KEY=test-key", "GOOGLE_GEMINI_BASE_URL=" + srv.URL()}
	if os.Getenv("COMPANION_WRITE_VERTEX") != "" {
		// Vertex AI in express mode (the key), against the same server.
		vars = append(vars, "GOOGLE_GENAI_USE_VERTEXAI=true")
	}
	writePeak(t, content, vars...)
}

// TestOpenAIWriteFilePeakRSS is TestWriteFilePeakRSS through the
// OpenAI-compatible provider: the scripted server streams the call's
// arguments as many small deltas, as OpenAI's servers do.
func TestOpenAIWriteFilePeakRSS(t *testing.T) {
	content := writePeakContent(t)
	script := strings.Replace(writePeakScript(content), `"match":"functionResponse"`, `"match":"\"role\":\"tool\""`, 1)
	srv := scriptedWith(t, scripted.NewOpenAIServer, script)
	writePeak(t, content, "COMPANION_PROVIDER=openai", "OPENAI_API_KEY=test-key", "OPENAI_BASE_URL="+srv.URL())
}

// writePeakContent is the file content of COMPANION_WRITE_MB megabytes,
// or skips the test when it is unset.
func writePeakContent(t *testing.T) string {
	mb, _ := strconv.Atoi(os.Getenv("COMPANION_WRITE_MB"))
	if mb <= 0 {
		t.Skip("set COMPANION_WRITE_MB to measure")
	}
	line := "a line of a big file written by write_file in one call, numbered 0000000\n"
	return strings.Repeat(line, (mb<<20)/len(line))
}

// writePeakScript is a turn that writes content to big.txt, and one that
// ends the prompt once the result is in (matched in Gemini's shape).
func writePeakScript(content string) string {
	return holeTurn(modelCall("write_file", map[string]any{"file_path": "big.txt", "content": content}))
}

// writePeak runs the write with the agent's environment modelEnv, checks
// the file and logs the agent's peak RSS.
func writePeak(t *testing.T, content string, modelEnv ...string) {
	ws := workspace(t, nil)
	fake := acptest.NewFake()
	fake.Answer = func(acptest.PermissionRequest) (string, map[string]any) { return "proceed_once", nil }
	ed := startAgent(t, agentOpts{binary: os.Getenv("COMPANION_WRITE_INPROC") == "", handler: fake.Handle,
		env: env(t, modelEnv...)})
	ed.Initialize(map[string]any{})
	id := ed.NewSession(ws)
	start := time.Now()
	var done acptest.Msg
	select {
	case done = <-ed.Prompt(id, "write big.txt"):
	case <-time.After(10 * time.Minute):
		t.Fatalf("no answer within 10 minutes; agent stderr:\n%s", ed.Stderr())
	}
	if got := ed.StopReason(done); got != "end_turn" {
		t.Fatalf("stopReason = %q; agent stderr:\n%s", got, ed.Stderr())
	}
	if fi, err := os.Stat(filepath.Join(ws, "big.txt")); err != nil || fi.Size() != int64(len(content)) {
		t.Fatalf("big.txt: %v", err)
	}
	if rss, ok := holeAgentPeakRSS(); ok {
		t.Logf("content %d MiB, agent peak RSS %d MiB (%.1fx), turn %.1f s", len(content)>>20, rss>>20,
			float64(rss)/float64(len(content)), time.Since(start).Seconds())
	}
	ed.Close()
}
