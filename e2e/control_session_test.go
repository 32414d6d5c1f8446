package e2e

import (
	"context"
	"slices"
	"strings"
	"syscall"
	"testing"

	"companion/internal/testkit/sdktest"
)

// TestControlCancelRequest: an interrupt while can_use_tool is pending
// makes companion cancel its own request (control_cancel_request) and
// ignore the SDK's late allow; a control_cancel_request from the SDK for
// a request still running answers it once, with "cancelled".
func TestControlCancelRequest(t *testing.T) {
	t.Parallel()
	ctx := sdkContext(t)
	ws := workspace(t, nil)
	cancelled := make(chan string, 1)
	late := func(ctx context.Context, req sdktest.CanUseToolRequest) (sdktest.PermissionResult, error) {
		<-ctx.Done() // companion's control_cancel_request (or its exit)
		cancelled <- req.RequestID
		return sdktest.PermissionResult{Behavior: "allow"}, nil // the late answer
	}
	s := startSDK(t, `{"turns":[{"match":"write it","chunks":[{"functionCall":{"name":"write_file","args":{"file_path":"out.txt","content":"x"}}}]}],"fallback":"echo"}`,
		ws, sdktest.Options{CanUseTool: late})
	from := s.Len()
	must(t, s, s.SendUser("write it"))
	_, err := s.WaitFor(ctx, func(m sdktest.Message) bool { return m.Type == "control_request" })
	must(t, s, err)
	must(t, s, s.Interrupt(ctx))
	var id string
	select {
	case id = <-cancelled:
	case <-ctx.Done():
		t.Fatalf("companion never cancelled its can_use_tool request; it sent %q", sdktest.Types(s.Messages()))
	}
	if !slices.Contains(s.Cancels(), id) {
		t.Errorf("no control_cancel_request for %s (cancels %q)", id, s.Cancels())
	}
	m, _, err := s.WaitFrom(ctx, from, func(m sdktest.Message) bool { return m.Type == "result" })
	must(t, s, err)
	if r, _ := m.Result(); r.StopReason != "cancelled" {
		t.Errorf("result = %s", m)
	}
	r, _, err := s.Prompt(ctx, "after the late answer")
	must(t, s, err)
	if fileExists(ws, "out.txt") || r.Subtype != "success" {
		t.Errorf("late allow honoured (out.txt %v) or session broken: %+v", fileExists(ws, "out.txt"), r)
	}
	// From the SDK: cancel a request still in flight, and one that does not exist.
	p, err := s.StartRequest("get_context_usage", nil)
	must(t, s, err)
	must(t, s, s.CancelRequest(p.ID))
	if _, err := p.Wait(ctx); err != nil {
		if msg := controlError(t, "cancelled request", err); msg != "cancelled" {
			t.Errorf("a cancelled request's error = %q, want \"cancelled\"", msg)
		}
	}
	must(t, s, s.CancelRequest("sdk_req_never_sent"))
	r, _, err = s.Prompt(ctx, "still alive?")
	must(t, s, err)
	if r.Subtype != "success" {
		t.Errorf("after cancelling an unknown request: %+v", r)
	}
	closeSDK(ctx, t, s) // also fails on a second answer to the cancelled request
}

// TestControlConcurrentRequests fires many control requests at once while
// a turn runs: each is answered exactly once, on whole lines.
func TestControlConcurrentRequests(t *testing.T) {
	t.Parallel()
	ctx := sdkContext(t)
	s := startSDK(t, `{"turns":[],"fallback":"echo"}`, workspace(t, nil), sdktest.Options{})
	must(t, s, s.SendUser("keep busy"))
	subtypes := []string{"supported_commands", "get_context_usage", "mcp_server_status"}
	var pending []*sdktest.Pending
	for i := range 30 {
		p, err := s.StartRequest(subtypes[i%len(subtypes)], nil)
		must(t, s, err)
		pending = append(pending, p)
	}
	for _, p := range pending {
		_, err := p.Wait(ctx)
		must(t, s, err)
	}
	_, err := s.WaitFor(ctx, func(m sdktest.Message) bool { return m.Type == "result" })
	must(t, s, err)
	closeSDK(ctx, t, s) // fails on a line that is not JSON or a second answer
}

// TestControlMalformed writes broken lines: each gets a clear error (a
// control_response when it carries a request_id, else a system/notice)
// and the session goes on.
func TestControlMalformed(t *testing.T) {
	t.Parallel()
	ctx := sdkContext(t)
	s := startSDK(t, `{"turns":[{"match":"still there?","chunks":[{"text":"Yes."}]}],"fallback":"error"}`, workspace(t, nil), sdktest.Options{})
	_, err := s.Initialize(ctx, sdktest.InitializeRequest{})
	must(t, s, err)
	tests := []struct {
		name, line string
		id         string // the request_id of the error response; "" = a notice
		want       string // in the error text
	}{
		{"not JSON", `this is not json`, "", ""},
		{"JSON but not an object", `[1,2,3]`, "", ""},
		{"unknown type", `{"type":"no_such_type"}`, "", "no_such_type"},
		{"user message with bad content", `{"type":"user","message":{"role":"user","content":42}}`, "", ""},
		{"unknown subtype", `{"type":"control_request","request_id":"m1","request":{"subtype":"no_such_subtype"}}`, "m1", "no_such_subtype"},
		{"missing request_id", `{"type":"control_request","request":{"subtype":"supported_commands"}}`, "", "request_id"},
		{"request is not an object", `{"type":"control_request","request_id":"m2","request":"set_model"}`, "m2", ""},
		{"no request", `{"type":"control_request","request_id":"m3"}`, "m3", ""},
		{"no subtype", `{"type":"control_request","request_id":"m4","request":{}}`, "m4", "subtype"},
		{"model of the wrong type", `{"type":"control_request","request_id":"m5","request":{"subtype":"set_model","model":42}}`, "m5", "model"},
		{"mode of the wrong type", `{"type":"control_request","request_id":"m6","request":{"subtype":"set_permission_mode","mode":["yolo"]}}`, "m6", "mode"},
		{"second initialize", `{"type":"control_request","request_id":"m7","request":{"subtype":"initialize"}}`, "m7", "initialize"},
		{"mcp_message without server", `{"type":"control_request","request_id":"m8","request":{"subtype":"mcp_message","message":{"jsonrpc":"2.0","method":"x"}}}`, "m8", ""},
	}
	for _, tt := range tests {
		from := s.Len()
		var p *sdktest.Pending
		if tt.id != "" {
			p = s.Expect(tt.id)
		}
		must(t, s, s.Write([]byte(tt.line)))
		var text string
		if p != nil {
			_, err := p.Wait(ctx)
			text = controlError(t, tt.name, err)
		} else {
			m, _, err := s.WaitFrom(ctx, from, func(m sdktest.Message) bool { return m.Is("system", "notice") })
			must(t, s, err)
			v := m.Map()
			text, _ = v["message"].(string)
			if v["level"] != "error" || text == "" {
				t.Errorf("%s: notice = %s", tt.name, m)
			}
		}
		if !strings.Contains(text, tt.want) {
			t.Errorf("%s: error %q does not mention %q", tt.name, text, tt.want)
		}
	}
	r, _, err := s.Prompt(ctx, "still there?")
	must(t, s, err)
	if r.Result != "Yes." {
		t.Errorf("after malformed input: %+v", r)
	}
	closeSDK(ctx, t, s)
}

// TestControlStreamInput: content blocks (text, image) as a prompt, prompts queued while
// a turn runs, user messages not echoed, get_context_usage, initialize
// refused after a prompt, and answers flushed when stdin ends at once.
func TestControlStreamInput(t *testing.T) {
	t.Parallel()
	ctx := sdkContext(t)
	s := startSDK(t, `{"turns":[{"match":"block prompt","chunks":[{"text":"Blocks seen."}]},
		{"match":"image/png","chunks":[{"text":"An image."}]}],"fallback":"echo"}`, workspace(t, nil), sdktest.Options{})
	isResult := func(m sdktest.Message) bool { return m.Type == "result" }
	must(t, s, s.SendUserContent([]any{map[string]any{"type": "text", "text": "block prompt"}}))
	m, i, err := s.WaitFrom(ctx, 0, isResult)
	must(t, s, err)
	if r, _ := m.Result(); r.Result != "Blocks seen." {
		t.Errorf("content-block prompt: %s", m)
	}
	must(t, s, s.SendUserContent([]any{map[string]any{"type": "text", "text": "what is this?"}, map[string]any{"type": "image",
		"source": map[string]any{"type": "base64", "media_type": "image/png", "data": tinyPNG}}}))
	m, _, err = s.WaitFrom(ctx, i+1, isResult)
	must(t, s, err)
	if r, _ := m.Result(); r.Result != "An image." {
		t.Errorf("image prompt: %s", m)
	}
	_, err = s.Initialize(ctx, sdktest.InitializeRequest{})
	controlError(t, "initialize after a prompt", err)
	from := s.Len()
	must(t, s, s.SendUser("first queued"))
	must(t, s, s.SendUser("second queued"))
	first, i, err := s.WaitFrom(ctx, from, isResult)
	must(t, s, err)
	second, _, err := s.WaitFrom(ctx, i+1, isResult)
	must(t, s, err)
	r1, _ := first.Result()
	r2, _ := second.Result()
	if !strings.HasSuffix(r1.Result, "first queued") || !strings.HasSuffix(r2.Result, "second queued") {
		t.Errorf("queued prompts answered %q then %q", r1.Result, r2.Result)
	}
	if texts := sdktest.FindBlocks(s.Messages(), "user", "text"); len(texts) != 0 {
		t.Errorf("user messages echoed: %+v", texts)
	}
	u, err := s.ContextUsage(ctx)
	must(t, s, err)
	if u.Size <= 0 || u.Used <= 0 || u.Percent <= 0 || u.Percent > 100 {
		t.Errorf("get_context_usage = %+v", u)
	}
	p, err := s.StartRequest("supported_commands", nil)
	must(t, s, err)
	from = s.Len()
	must(t, s, s.SendUser("last words"))
	code, err := s.Close(ctx)
	if err != nil || code != 0 {
		t.Errorf("exit %d (%v) after stdin ended; stderr:\n%s", code, err, s.Stderr())
	}
	if _, err := p.Wait(ctx); err != nil {
		t.Errorf("the request sent just before stdin ended: %v", err)
	}
	if m, _, err := s.WaitFrom(ctx, from, isResult); err != nil {
		t.Errorf("the prompt sent just before stdin ended got no result: %v", err)
	} else if r, _ := m.Result(); !strings.HasSuffix(r.Result, "last words") {
		t.Errorf("last result = %s", m)
	}
	for _, p := range s.Problems() {
		t.Error(p)
	}
}

// TestControlExitCodes: a stream-json session exits 0 unless its last
// turn failed, and 130 on SIGINT during a turn, after writing that turn's
// cancelled result.
func TestControlExitCodes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, script string
		prompts      []string
		interrupt    bool
		code         int
	}{
		// Matches are words the system prompt does not hold.
		{"last turn ok", `{"turns":[{"match":"prompt-uno","status":400,"message":"nope"}],"fallback":"echo"}`, []string{"prompt-uno", "prompt-dos"}, false, 0},
		{"last turn failed", `{"turns":[{"match":"prompt-dos","status":400,"message":"nope"}],"fallback":"echo"}`, []string{"prompt-uno", "prompt-dos"}, false, 1},
		{"SIGINT", `{"turns":[{"match":"prompt-uno","chunks":[{"text":"working"}],"hang":true}],"fallback":"echo"}`, []string{"prompt-uno"}, true, 130},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ctx := sdkContext(t)
			s := startSDK(t, tt.script, workspace(t, nil), sdktest.Options{}, "--include-partial-messages")
			if tt.interrupt {
				must(t, s, s.SendUser(tt.prompts[0]))
				_, err := s.WaitFor(ctx, func(m sdktest.Message) bool {
					return m.Type == "stream_event" && strings.Contains(m.String(), "working")
				})
				must(t, s, err)
				must(t, s, s.Signal(syscall.SIGINT))
			} else {
				for _, p := range tt.prompts {
					_, _, err := s.Prompt(ctx, p)
					must(t, s, err)
				}
			}
			code, err := s.Close(ctx)
			if err != nil || code != tt.code {
				t.Errorf("exit %d (%v), want %d; stderr:\n%s", code, err, tt.code, s.Stderr())
			}
			msgs := s.Messages()
			if n := len(msgs); n == 0 || msgs[n-1].Type != "result" {
				t.Fatalf("the last line is not a result: %q", sdktest.Types(msgs))
			}
			if r, _ := msgs[len(msgs)-1].Result(); tt.interrupt && (r.StopReason != "cancelled" || r.Subtype != "error_interrupted") {
				t.Errorf("result after SIGINT = %s", msgs[len(msgs)-1])
			}
		})
	}
}
