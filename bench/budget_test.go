package bench

import (
	"testing"

	"companion/agent/model/scripted"
)

// geminiCLIFirstRequest is the size in bytes of Gemini CLI 0.61.0's first
// model request for the prompt and workspace of BenchmarkFirstRequest:
// `gemini --acp` (its editor mode, all 15 of its tools offered) with
// GOOGLE_GEMINI_BASE_URL pointing at a recording server on 127.0.0.1,
// the workspace a git repository. Of it, the system instruction is 32,382
// bytes, the tools 16,070 and the contents 1,016. (In `gemini -p` without
// --yolo, which offers only the 8 tools that need no approval, it is
// 42,057; with --yolo 49,503.) The router's classification request to
// the flash-lite model, sent before it, is not counted.
const geminiCLIFirstRequest = 49_635

// TestFirstRequestWithinBudget holds companion's first request, plain
// (no optional parts), to at most three quarters of Gemini CLI's for the
// same prompt in the same workspace (issue 31): the tools and prompt
// lines added later must fit in it.
func TestFirstRequestWithinBudget(t *testing.T) {
	t.Parallel()
	srv, err := scripted.NewServer(mustScript(t, `{"turns":[{"chunks":[{"text":"Done."}]}]}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	promptOnce(t, srv.URL(), "Add a --verbose flag that prints each file as it is counted.", false)
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(reqs))
	}
	_, system, decls, _ := logicalRequest(t, reqs[0].Raw)
	if n, limit := len(reqs[0].Raw), geminiCLIFirstRequest*3/4; n > limit {
		t.Errorf("the first request is %d bytes (system %d, tools %d); the budget is %d, 0.75× Gemini CLI's %d",
			n, system, decls, limit, geminiCLIFirstRequest)
	}
}
