package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	"companion/internal/testkit/acptest"
)

// stScript: the first prompt fails (a 400 is not retried); the second
// meets a 429 the provider retries, then reads a file (the policy allows
// it), writes one (the user allows it), runs a command (the user rejects
// it) and answers.
const stScript = `{"turns":[
	{"status":400,"message":"bad request"},
	{"status":429,"message":"Resource exhausted","retryDelay":"10ms"},
	{"chunks":[{"functionCall":{"name":"read_file","args":{"file_path":"a.txt"}}}],"usage":{"promptTokens":100,"outputTokens":10}},
	{"chunks":[{"functionCall":{"name":"write_file","args":{"file_path":"b.txt","content":"b\n"}}}],"usage":{"promptTokens":120,"outputTokens":10}},
	{"chunks":[{"functionCall":{"name":"run_shell_command","args":{"command":"rm a.txt"}}}],"usage":{"promptTokens":140,"outputTokens":10}},
	{"chunks":[{"text":"done"}],"usage":{"promptTokens":160,"outputTokens":5}}]}`

// stStats is the part of _companion/session/stats's answer the test reads.
type stStats struct {
	SessionID string `json:"sessionId"`
	Requests  int    `json:"requests"`
	Errors    int    `json:"errors"`
	Tokens    struct {
		Prompt int `json:"prompt"`
		Output int `json:"output"`
	} `json:"tokens"`
	ToolCalls   int `json:"toolCalls"`
	ToolSuccess int `json:"toolSuccess"`
	ToolFailed  int `json:"toolFailed"`
	Decisions   struct {
		Policy   int `json:"policy"`
		User     int `json:"user"`
		Rejected int `json:"rejected"`
	} `json:"decisions"`
	Models []struct {
		Name     string `json:"name"`
		Requests int    `json:"requests"`
	} `json:"models"`
	Tools []struct {
		Name  string `json:"name"`
		Calls int    `json:"calls"`
	} `json:"tools"`
}

// stFetch asks for a session's figures.
func stFetch(t *testing.T, ed *acptest.Editor, id string) stStats {
	t.Helper()
	m := ed.Call("_companion/session/stats", map[string]any{"sessionId": id})
	if m.Error != nil {
		t.Fatalf("stats: %s", m.Error)
	}
	var st stStats
	if err := json.Unmarshal(m.Result, &st); err != nil {
		t.Fatal(err)
	}
	return st
}

// TestStatsThroughACP: after a failed prompt and one with a retry and
// three tool calls, _companion/session/stats answers the session's
// figures, /stats shows them as text, and an unknown session is an error.
func TestStatsThroughACP(t *testing.T) {
	t.Parallel()
	fake := acptest.NewFake()
	fake.Answer = func(req acptest.PermissionRequest) (string, map[string]any) {
		if strings.Contains(req.ToolCall.Title, "rm") {
			return "reject_once", nil
		}
		return "proceed_once", nil
	}
	ed := startAgent(t, agentOpts{script: stScript, handler: fake.Handle, settings: fastRetries})
	if init := ed.Initialize(map[string]any{}); !strings.Contains(string(init.Result), `"stats":true`) {
		t.Errorf("stats not advertised: %s", init.Result)
	}
	id := ed.NewSession(workspace(t, map[string]string{"a.txt": "a"}))
	if st := stFetch(t, ed, id); st.Requests != 0 || st.ToolCalls != 0 || st.SessionID != id {
		t.Errorf("fresh session stats = %+v", st)
	}
	ed.Wait(ed.Prompt(id, "fail"))
	if got := ed.StopReason(ed.Wait(ed.Prompt(id, "work"))); got != "end_turn" {
		t.Fatalf("stopReason = %q", got)
	}
	st := stFetch(t, ed, id)
	if st.Requests != 5 || st.Errors != 1 || st.Tokens.Prompt != 520 || st.Tokens.Output != 35 {
		t.Errorf("requests/tokens = %+v", st)
	}
	if st.ToolCalls != 3 || st.ToolSuccess != 2 || st.ToolFailed != 1 {
		t.Errorf("tool calls = %+v", st)
	}
	if st.Decisions.Policy != 1 || st.Decisions.User != 1 || st.Decisions.Rejected != 1 {
		t.Errorf("decisions = %+v", st.Decisions)
	}
	if len(st.Models) != 1 || st.Models[0].Requests != 5 || len(st.Tools) != 3 {
		t.Errorf("models/tools = %+v / %+v", st.Models, st.Tools)
	}
	text := sayText(t, ed, id, "/stats")
	for _, want := range []string{"Model requests: 5 (1 error)", "Tool calls: 3 (2 succeeded, 1 failed", "1 rejected by the user", "- read_file: 1 call"} {
		if !strings.Contains(text, want) {
			t.Errorf("/stats lacks %q:\n%s", want, text)
		}
	}
	if m := ed.Call("_companion/session/stats", map[string]any{"sessionId": "sess_0123456789abcdef"}); m.Error == nil {
		t.Errorf("unknown session answered %s", m.Result)
	}
}

// stRunScript: a retried 429, a read (allowed by the policy), a command
// the headless run may not ask about (denied), then the answer.
const stRunScript = `{"turns":[
	{"status":429,"message":"Resource exhausted","retryDelay":"10ms"},
	{"chunks":[{"functionCall":{"name":"read_file","args":{"file_path":"a.txt"}}}],"usage":{"promptTokens":100,"outputTokens":10}},
	{"chunks":[{"functionCall":{"name":"run_shell_command","args":{"command":"rm a.txt"}}}],"usage":{"promptTokens":120,"outputTokens":10}},
	{"chunks":[{"text":"done"}],"usage":{"promptTokens":140,"outputTokens":5}}]}`

// TestStatsInRunJSON: companion run --output-format json's stats carry the
// figures Gemini CLI names (errors, latency, per-tool counts and time,
// decisions) besides the ones it had.
func TestStatsInRunJSON(t *testing.T) {
	t.Parallel()
	ws := workspace(t, map[string]string{"a.txt": "a"})
	e := withSettings(t, env(t), fastRetries)
	o := runCompanion(t, runOpts{dir: ws, env: e, args: []string{"-p", "go", "--output-format", "json", "--script", script(t, stRunScript)}})
	if o.Code != 0 {
		t.Fatalf("exit %d\n%s", o.Code, o)
	}
	var r struct {
		Stats struct {
			Models map[string]struct {
				API struct {
					TotalRequests  int    `json:"totalRequests"`
					TotalErrors    *int   `json:"totalErrors"`
					TotalLatencyMs *int64 `json:"totalLatencyMs"`
				} `json:"api"`
				Tokens struct {
					Prompt int `json:"prompt"`
				} `json:"tokens"`
			} `json:"models"`
			Tools struct {
				TotalCalls     int `json:"totalCalls"`
				TotalFail      int `json:"totalFail"`
				TotalDecisions struct {
					AutoAccept int `json:"auto_accept"`
					Reject     int `json:"reject"`
				} `json:"totalDecisions"`
				ByName map[string]struct {
					Count int `json:"count"`
				} `json:"byName"`
				DecidedBy struct {
					Policy int `json:"policy"`
					Denied int `json:"denied"`
				} `json:"decidedBy"`
			} `json:"tools"`
		} `json:"stats"`
	}
	if err := json.Unmarshal([]byte(strings.TrimSpace(o.Stdout)), &r); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, o.Stdout)
	}
	if len(r.Stats.Models) != 1 {
		t.Fatalf("models = %+v", r.Stats.Models)
	}
	for _, m := range r.Stats.Models {
		if m.API.TotalRequests != 3 || m.API.TotalErrors == nil || *m.API.TotalErrors != 0 || m.API.TotalLatencyMs == nil || m.Tokens.Prompt != 360 {
			t.Errorf("model stats = %+v", m)
		}
	}
	tl := r.Stats.Tools
	if tl.TotalCalls != 2 || tl.TotalFail != 1 || tl.ByName["read_file"].Count != 1 || tl.ByName["run_shell_command"].Count != 1 {
		t.Errorf("tool stats = %+v", tl)
	}
	if tl.TotalDecisions.AutoAccept != 1 || tl.TotalDecisions.Reject != 1 || tl.DecidedBy.Policy != 1 || tl.DecidedBy.Denied != 1 {
		t.Errorf("decisions = %+v / %+v", tl.TotalDecisions, tl.DecidedBy)
	}
}
