package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"companion/internal/testkit/acptest"
)

// TestVertexAIExpressMode runs a tool turn on Vertex AI in express mode
// (GOOGLE_GENAI_USE_VERTEXAI with a key) through the whole wiring, settings
// to provider: both requests reach the server as Vertex AI streaming
// requests carrying the key, the call is run, and its result goes back.
func TestVertexAIExpressMode(t *testing.T) {
	t.Parallel()
	ws := workspace(t, nil)
	fake := acptest.NewFake()
	fake.Answer = func(acptest.PermissionRequest) (string, map[string]any) { return "proceed_once", nil }
	srv := scriptedModel(t, holeTurn(modelCall("write_file", map[string]any{"file_path": "v.txt", "content": "from vertex\n"})))
	ed := startAgent(t, agentOpts{handler: fake.Handle,
		env: env(t, "GOOGLE_GENAI_USE_VERTEXAI=true", "GEMINI_API_KEY=vertex-key", "GOOGLE_GEMINI_BASE_URL="+srv.URL())})
	ed.Initialize(map[string]any{})
	id := ed.NewSession(ws)
	if got := ed.StopReason(ed.Wait(ed.Prompt(id, "write v.txt"))); got != "end_turn" {
		t.Fatalf("stopReason = %q\n%s", got, ed.Stderr())
	}
	if b, err := os.ReadFile(filepath.Join(ws, "v.txt")); err != nil || string(b) != "from vertex\n" {
		t.Errorf("v.txt = %q, %v", b, err)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d model requests, want 2", len(reqs))
	}
	for i, r := range reqs {
		if !strings.HasPrefix(r.Path, "/v1beta1/publishers/google/models/") || r.Method != "streamGenerateContent" ||
			r.Query != "alt=sse" || r.APIKey != "vertex-key" {
			t.Errorf("request %d: %s %s?%s key %q, want a Vertex AI stream request with the key", i+1, r.Method, r.Path, r.Query, r.APIKey)
		}
	}
	if !strings.Contains(string(reqs[1].Raw), `"functionResponse"`) {
		t.Errorf("the second request does not carry the call's result: %s", reqs[1].Raw)
	}
	ed.Close()
}
