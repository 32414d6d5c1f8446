package schemacheck

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"companion/acp/schema"
)

// newValidator builds a Validator or fails the test.
func newValidator(t *testing.T) *Validator {
	t.Helper()
	v, err := New()
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return v
}

// TestTranscript feeds a whole conversation through a Stream: every line
// is valid and no request is left pending.
func TestTranscript(t *testing.T) {
	s := newValidator(t).NewStream()
	f, err := os.Open(filepath.Join("testdata", "transcript.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		line := sc.Bytes()
		dir := map[byte]Direction{'>': ToAgent, '<': ToClient}[line[0]]
		if dir == 0 {
			t.Fatalf("line %d: no direction marker", n+1)
		}
		n++
		if _, err := s.Check(dir, line[2:]); err != nil {
			t.Errorf("line %d: %v", n, err)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n < 20 {
		t.Fatalf("read only %d lines", n)
	}
	if p := s.Pending(); len(p) != 0 {
		t.Errorf("pending at the end: %v", p)
	}
}

// TestMessageResults checks what Message reports for valid lines.
func TestMessageResults(t *testing.T) {
	v := newValidator(t)
	lookup := func(id string) (string, bool) { return "session/prompt", id == "5" }
	tests := []struct {
		dir  Direction
		line string
		want Message
	}{
		{ToAgent, `{"jsonrpc":"2.0","id":5,"method":"session/prompt","params":{"sessionId":"s","prompt":[]}}`,
			Message{Kind: Request, Method: "session/prompt", ID: "5", Def: "PromptRequest"}},
		{ToClient, `{"jsonrpc":"2.0", "id": 5, "result":{"stopReason":"end_turn"}}`,
			Message{Kind: Result, Method: "session/prompt", ID: "5", Def: "PromptResponse"}},
		{ToClient, `{"jsonrpc":"2.0","id":5,"error":{"code":-32800,"message":"Cancelled."}}`,
			Message{Kind: ErrorReply, Method: "session/prompt", ID: "5", Def: "Error"}},
		{ToAgent, `{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":"x"}}`,
			Message{Kind: Notification, Method: "$/cancel_request", Def: "CancelRequestNotification"}},
		{ToAgent, `{"jsonrpc":"2.0","id":"a","method":"logout"}`,
			Message{Kind: Request, Method: "logout", ID: `"a"`, Def: "LogoutRequest"}},
		{ToClient, `{"jsonrpc":"2.0","method":"_x/y"}`, Message{Kind: Notification, Method: "_x/y"}},
	}
	for _, tt := range tests {
		got, err := v.Message(tt.dir, []byte(tt.line), lookup)
		if err != nil {
			t.Errorf("%s: %v", tt.line, err)
			continue
		}
		if got != tt.want {
			t.Errorf("%s: got %+v, want %+v", tt.line, got, tt.want)
		}
	}
}

// TestMessageErrors checks the failures Message reports.
func TestMessageErrors(t *testing.T) {
	v := newValidator(t)
	pending := map[string]string{"1": "initialize", "2": "session/load", "3": "fs/read_text_file"}
	lookup := func(id string) (string, bool) { m, ok := pending[id]; return m, ok }
	tests := []struct {
		name string
		dir  Direction
		line string
		want error
	}{
		{"not json", ToAgent, `{"jsonrpc":`, ErrEnvelope},
		{"batch", ToAgent, `[{"jsonrpc":"2.0","method":"session/cancel"}]`, ErrEnvelope},
		{"empty", ToAgent, ``, ErrEnvelope},
		{"no jsonrpc", ToAgent, `{"id":1,"method":"initialize","params":{"protocolVersion":1}}`, ErrEnvelope},
		{"old jsonrpc", ToAgent, `{"jsonrpc":"1.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`, ErrEnvelope},
		{"object id", ToAgent, `{"jsonrpc":"2.0","id":{},"method":"initialize","params":{"protocolVersion":1}}`, ErrEnvelope},
		{"result and error", ToClient, `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1},"error":null}`, ErrEnvelope},
		{"neither", ToClient, `{"jsonrpc":"2.0","id":1}`, ErrEnvelope},
		{"no id no method", ToClient, `{"jsonrpc":"2.0","result":{}}`, ErrEnvelope},
		{"call with result", ToAgent, `{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s"},"result":{}}`, ErrEnvelope},
		{"unknown method", ToAgent, `{"jsonrpc":"2.0","id":9,"method":"session/fly","params":{}}`, ErrUnknownMethod},
		{"update sent to agent", ToAgent, `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan","entries":[]}}}`, ErrUnknownMethod},
		{"prompt sent to client", ToClient, `{"jsonrpc":"2.0","id":9,"method":"session/prompt","params":{"sessionId":"s","prompt":[]}}`, ErrUnknownMethod},
		{"notification with id", ToAgent, `{"jsonrpc":"2.0","id":9,"method":"session/cancel","params":{"sessionId":"s"}}`, ErrEnvelope},
		{"request without id", ToAgent, `{"jsonrpc":"2.0","method":"session/prompt","params":{"sessionId":"s","prompt":[]}}`, ErrEnvelope},
		{"bad params", ToAgent, `{"jsonrpc":"2.0","id":9,"method":"session/prompt","params":{"sessionId":"s"}}`, ErrInvalid},
		{"missing params", ToAgent, `{"jsonrpc":"2.0","id":9,"method":"session/new"}`, ErrInvalid},
		{"bad update", ToClient, `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"txt","text":"x"}}}}`, ErrInvalid},
		{"bad result", ToClient, `{"jsonrpc":"2.0","id":1,"result":{"agentCapabilities":{}}}`, ErrInvalid},
		{"agent null result", ToClient, `{"jsonrpc":"2.0","id":2,"result":null}`, ErrInvalid},
		{"client null content", ToAgent, `{"jsonrpc":"2.0","id":3,"result":null}`, ErrInvalid},
		{"bad error", ToClient, `{"jsonrpc":"2.0","id":1,"error":{"code":"x","message":"m"}}`, ErrInvalid},
		{"unmatched result", ToClient, `{"jsonrpc":"2.0","id":99,"result":{}}`, ErrUnmatchedResponse},
		{"unmatched error", ToClient, `{"jsonrpc":"2.0","id":99,"error":{"code":-32603,"message":"m"}}`, ErrUnmatchedResponse},
		{"scalar ext params", ToAgent, `{"jsonrpc":"2.0","method":"_x","params":3}`, ErrEnvelope},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := v.Message(tt.dir, []byte(tt.line), lookup); !errors.Is(err, tt.want) {
				t.Errorf("err = %v, want %v", err, tt.want)
			}
		})
	}
}

// TestDef checks single-definition validation.
func TestDef(t *testing.T) {
	v := newValidator(t)
	tests := []struct {
		def, data string
		want      error
	}{
		{"ContentBlock", `{"type":"text","text":"x"}`, nil},
		{"ContentBlock", `{"type":"text"}`, ErrInvalid},
		{"McpServer", `{"name":"n","command":"/c","args":[],"env":[]}`, nil},
		{"McpServer", `{"name":"n","command":"/c","args":[],"env":{"K":"V"}}`, ErrInvalid},
		{"NewSessionRequest", `{"cwd":"/p"}`, ErrInvalid},
		{"ProtocolVersion", `70000`, ErrInvalid},
		{"ToolKind", `"teleport"`, ErrInvalid},
		{"NoticeSeverity", `"_custom"`, nil},
		{"ContentBlock", `not json`, ErrInvalid},
		{"NoSuchDef", `{}`, ErrUnknownDef},
	}
	for _, tt := range tests {
		if err := v.Def(tt.def, []byte(tt.data)); !errors.Is(err, tt.want) {
			t.Errorf("Def(%s, %s) = %v, want %v", tt.def, tt.data, err, tt.want)
		}
	}
}

// TestMethodDefsCoverMeta checks that every method of meta.json resolves
// to schema definitions in the direction its group says.
func TestMethodDefsCoverMeta(t *testing.T) {
	v := newValidator(t)
	var meta struct {
		AgentMethods    map[string]string `json:"agentMethods"`
		ClientMethods   map[string]string `json:"clientMethods"`
		ProtocolMethods map[string]string `json:"protocolMethods"`
	}
	if err := json.Unmarshal(schema.Meta, &meta); err != nil {
		t.Fatal(err)
	}
	check := func(dir Direction, methods map[string]string, bothWays bool) {
		for _, m := range methods {
			if params, _, ok := v.MethodDefs(dir, m); !ok || params == "" {
				t.Errorf("%s %s: no params definition", dir, m)
			}
			if _, _, ok := v.MethodDefs(dir.Reverse(), m); ok != bothWays {
				t.Errorf("%s %s resolves: %v, want %v", dir.Reverse(), m, ok, bothWays)
			}
		}
	}
	check(ToAgent, meta.AgentMethods, false)
	check(ToClient, meta.ClientMethods, false)
	check(ToAgent, meta.ProtocolMethods, true)
	if p, r, _ := v.MethodDefs(ToAgent, "session/prompt"); p != "PromptRequest" || r != "PromptResponse" {
		t.Errorf("session/prompt → %s, %s", p, r)
	}
}

// TestStreamPendingAndReuse checks request tracking across directions.
func TestStreamPendingAndReuse(t *testing.T) {
	s := newValidator(t).NewStream()
	req := `{"jsonrpc":"2.0","id":1,"method":"session/close","params":{"sessionId":"s"}}`
	if _, err := s.Check(ToAgent, []byte(req)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Check(ToAgent, []byte(req)); !errors.Is(err, ErrUnmatchedResponse) {
		t.Errorf("reused id: err = %v", err)
	}
	// The same id traveling the other way is a different request.
	if _, err := s.Check(ToClient, []byte(`{"jsonrpc":"2.0","id":1,"method":"terminal/kill","params":{"sessionId":"s","terminalId":"t"}}`)); err != nil {
		t.Fatal(err)
	}
	if got := len(s.Pending()); got != 2 {
		t.Fatalf("pending = %v", s.Pending())
	}
	// A response travels opposite to its request.
	if _, err := s.Check(ToClient, []byte(`{"jsonrpc":"2.0","id":1,"result":{}}`)); err != nil {
		t.Errorf("close result: %v", err)
	}
	if _, err := s.Check(ToClient, []byte(`{"jsonrpc":"2.0","id":1,"result":{}}`)); !errors.Is(err, ErrUnmatchedResponse) {
		t.Errorf("second answer: err = %v", err)
	}
	if _, err := s.Check(ToAgent, []byte(`{"jsonrpc":"2.0","id":1,"result":null}`)); err != nil {
		t.Errorf("kill result: %v", err)
	}
	if p := s.Pending(); len(p) != 0 {
		t.Errorf("pending = %v", p)
	}
}

// TestStreamConcurrent feeds both directions from two goroutines.
func TestStreamConcurrent(t *testing.T) {
	s := newValidator(t).NewStream()
	var wg sync.WaitGroup
	errs := make(chan error, 2)
	for _, dir := range []Direction{ToAgent, ToClient} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				req := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"%s","params":%s}`, i, methodFor(dir), paramsFor(dir))
				if _, err := s.Check(dir, []byte(req)); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if got := len(s.Pending()); got != 100 {
		t.Errorf("pending = %d, want 100", got)
	}
}

// methodFor is a request method that travels in dir.
func methodFor(dir Direction) string {
	if dir == ToAgent {
		return "session/close"
	}
	return "terminal/release"
}

// paramsFor is valid params for methodFor(dir).
func paramsFor(dir Direction) string {
	if dir == ToAgent {
		return `{"sessionId":"s"}`
	}
	return `{"sessionId":"s","terminalId":"t"}`
}
