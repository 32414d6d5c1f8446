package headless

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"companion/internal/testkit/testio"
)

// lines decodes every line written so far.
func lines(t *testing.T, b *testio.Buffer) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(b.String()), "\n") {
		if l == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("line %q is not JSON: %v", l, err)
		}
		out = append(out, m)
	}
	return out
}

// waitLines waits until n lines were written.
func waitLines(t *testing.T, b *testio.Buffer, n int) []map[string]any {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if ls := lines(t, b); len(ls) >= n || time.Now().After(deadline) {
			return ls
		}
		time.Sleep(time.Millisecond)
	}
}

func newTestControl(timeout time.Duration) (*control, *testio.Buffer) {
	out := &testio.Buffer{}
	return newControl(&lineWriter{w: out}, timeout, slog.New(slog.DiscardHandler)), out
}

func TestControlRequest(t *testing.T) {
	tests := []struct {
		name    string
		answer  string // the SDK's control_response body; "" answers nothing
		cancel  bool   // the SDK cancels companion's request
		ctxDone bool
		want    string
		wantErr string
		aborted bool // companion sent a control_cancel_request
	}{
		{"success", `{"subtype":"success","request_id":"companion_1","response":{"behavior":"allow"}}`, false, false, `{"behavior":"allow"}`, "", false},
		{"success without response", `{"subtype":"success","request_id":"companion_1"}`, false, false, `{}`, "", false},
		{"error string", `{"subtype":"error","request_id":"companion_1","error":"nope"}`, false, false, "", "nope", false},
		{"error object", `{"subtype":"error","request_id":"companion_1","error":{"message":"bad"}}`, false, false, "", "bad", false},
		{"timeout", "", false, false, "", "did not answer in time", true},
		{"cancelled by the SDK", "", true, false, "", "cancelled", false},
		{"turn cancelled", "", false, true, "", "context canceled", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, out := newTestControl(50 * time.Millisecond)
			if tt.answer != "" || tt.cancel {
				c.timeout = 10 * time.Second
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			go func() {
				ls := waitLines(t, out, 1)
				if len(ls) == 0 {
					return
				}
				switch {
				case tt.answer != "":
					if err := c.answered(json.RawMessage(tt.answer)); err != nil {
						t.Error(err)
					}
				case tt.cancel:
					c.cancelled("companion_1")
				case tt.ctxDone:
					cancel()
				}
			}()
			got, err := c.request(ctx, "can_use_tool", map[string]any{"tool_name": "x"})
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
			} else if err != nil || string(got) != tt.want {
				t.Fatalf("request = %s, %v; want %s", got, err, tt.want)
			}
			ls := lines(t, out)
			req := ls[0]["request"].(map[string]any)
			if ls[0]["type"] != "control_request" || ls[0]["request_id"] != "companion_1" || req["subtype"] != "can_use_tool" || req["tool_name"] != "x" {
				t.Errorf("request line = %v", ls[0])
			}
			aborted := len(ls) == 2 && ls[1]["type"] == "control_cancel_request" && ls[1]["request_id"] == "companion_1"
			if aborted != tt.aborted {
				t.Errorf("lines = %v, want a control_cancel_request: %v", ls, tt.aborted)
			}
		})
	}
}

func TestControlServe(t *testing.T) {
	c, out := newTestControl(time.Second)
	release := make(chan struct{})
	c.serve(context.Background(), "a", func(context.Context) (any, error) { <-release; return map[string]int{"n": 1}, nil })
	c.serve(context.Background(), "a", func(context.Context) (any, error) { return nil, nil }) // duplicate id
	c.serve(context.Background(), "b", func(ctx context.Context) (any, error) { <-ctx.Done(); return nil, nil })
	c.serve(context.Background(), "c", func(context.Context) (any, error) { return nil, errors.New("broken") })
	c.cancelled("b")
	close(release)
	c.wait()
	byID := map[string]map[string]any{}
	for _, l := range lines(t, out) {
		resp := l["response"].(map[string]any)
		id := resp["request_id"].(string)
		if _, seen := byID[id]; seen && id != "a" {
			t.Errorf("request %s answered twice", id)
		}
		if id == "a" && resp["subtype"] == "error" {
			if !strings.Contains(resp["error"].(string), "already being worked on") {
				t.Errorf("duplicate id answer = %v", resp)
			}
			continue
		}
		byID[id] = resp
	}
	if r := byID["a"]; r["subtype"] != "success" || r["response"].(map[string]any)["n"] != 1.0 {
		t.Errorf("a = %v", r)
	}
	if r := byID["b"]; r["subtype"] != "error" || r["error"] != "cancelled" {
		t.Errorf("b = %v, want cancelled", r)
	}
	if r := byID["c"]; r["subtype"] != "error" || r["error"] != "broken" {
		t.Errorf("c = %v", r)
	}
	if err := c.answered(json.RawMessage(`{"subtype":"success"}`)); err == nil {
		t.Error("a control_response without request_id was accepted")
	}
	if err := c.answered(json.RawMessage(`{"subtype":"success","request_id":"unknown"}`)); err != nil {
		t.Errorf("a late answer is dropped quietly, got %v", err)
	}
}
