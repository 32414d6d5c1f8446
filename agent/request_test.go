package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"companion/agent/model"
	"companion/agent/model/gemini"
	"companion/agent/model/scripted"
	"companion/ide"
	"companion/tools"
	"companion/tools/builtin"
)

// modelOrder is a Gemini request body in the order the model reads it
// (system instruction, tools, contents), the order prompt caching keys on.
func modelOrder(t *testing.T, raw []byte) []byte {
	t.Helper()
	var body map[string]json.RawMessage
	if err := json.Unmarshal(raw, &body); err != nil {
		t.Fatal(err)
	}
	var out []byte
	for _, key := range []string{"systemInstruction", "tools", "contents"} {
		out = append(out, body[key]...)
	}
	return out
}

// sharedShare is the share of b's bytes that repeat a's from the start.
func sharedShare(a, b []byte) float64 {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return float64(n) / float64(len(b))
}

// TestStablePrefix sends two turns through the Gemini provider to the
// scripted server, with editor context, a tool call and a todo reminder,
// and checks that each request repeats at least 95% of its bytes from
// the start of the one before: the stable prefix providers cache.
func TestStablePrefix(t *testing.T) {
	srv, err := scripted.NewServer(mustParse(t, `{"turns":[
		{"chunks":[{"functionCall":{"name":"write_todos","args":{"todos":[{"description":"Read a.txt","status":"in_progress"}]}}}]},
		{"chunks":[{"functionCall":{"name":"read_file","args":{"file_path":"a.txt"}}}]},
		{"chunks":[{"text":"It says hello."}]},
		{"chunks":[{"text":"Bye."}]}],"fallback":"error"}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	prov, err := gemini.New(context.Background(), gemini.Config{APIKey: "k", BaseURL: srv.URL()})
	if err != nil {
		t.Fatal(err)
	}
	all := append(builtin.ReadOnly(builtin.ReadOnlyOptions{}), builtin.Editing(builtin.EditOptions{})...)
	reg := tools.NewRegistry(append(all, builtin.Extras(builtin.ExtraOptions{})...)...)
	s, _ := newTestSession(t, prov, func(o *Options) {
		o.Tools, o.ModelName, o.TodoReminderEvery = reg, "gemini-2.5-pro", 3
	})
	if err := os.WriteFile(filepath.Join(s.Root(), "a.txt"), []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	uri := "file://" + filepath.Join(s.Root(), "a.txt")
	s.UpdateIDEContext(ide.Context{OpenFiles: []ide.OpenFile{{URI: uri, IsActive: true}}})
	if _, err := s.Prompt(context.Background(), userText("What does a.txt say?")); err != nil {
		t.Fatal(err)
	}
	s.UpdateIDEContext(ide.Context{OpenFiles: []ide.OpenFile{{URI: uri, IsActive: true, SelectedText: "hello"}}})
	if _, err := s.Prompt(context.Background(), userText("Thanks.")); err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests, want 4", len(reqs))
	}
	if !strings.Contains(string(reqs[2].Raw), "system-reminder") {
		t.Error("the third request carries no todo reminder; the test no longer covers it")
	}
	for i := 1; i < len(reqs); i++ {
		share := sharedShare(modelOrder(t, reqs[i-1].Raw), modelOrder(t, reqs[i].Raw))
		t.Logf("request %d repeats %.1f%% of its bytes from request %d", i+1, 100*share, i)
		if share < 0.95 {
			t.Errorf("request %d repeats %.1f%% of its bytes from request %d's start; want ≥ 95%%", i+1, 100*share, i)
		}
	}
}

func mustParse(t *testing.T, s string) *scripted.Script {
	t.Helper()
	sc, err := scripted.ParseScript([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// TestMaskSettled: huge old outputs are masked on a boundary that moves
// maskStep user contents at a time, so most requests leave history as the
// one before sent it.
func TestMaskSettled(t *testing.T) {
	huge := strings.Repeat("x", maskOver+1)
	var hist []model.Content
	masked := func(cs []model.Content) int {
		n := 0
		for _, c := range cs {
			for _, p := range c.Parts {
				if fr := p.FunctionResponse; fr != nil && strings.Contains(fmt.Sprint(fr.Response["output"]), "masked") {
					n++
				}
			}
		}
		return n
	}
	var counts []int
	for range 2*maskStep + 2 {
		hist = append(hist, model.Content{Role: model.RoleModel, Parts: []model.Part{{FunctionCall: &model.FunctionCall{Name: "read_file"}}}},
			model.Content{Role: model.RoleUser, Parts: []model.Part{{FunctionResponse: &model.FunctionResponse{Name: "read_file", Response: map[string]any{"output": huge}}}}})
		counts = append(counts, masked(maskSettled(hist)))
	}
	// With n users, the first (n-2) rounded down to maskStep are masked.
	for i, got := range counts {
		if want := (i + 1 - 2) / maskStep * maskStep; got != max(want, 0) {
			t.Errorf("after %d outputs: %d masked, want %d", i+1, got, max(want, 0))
		}
	}
	if out := maskSettled(hist); len(out) != len(hist) || out[len(out)-1].Parts[0].FunctionResponse.Response["output"] != huge {
		t.Error("the newest output changed")
	}
}
