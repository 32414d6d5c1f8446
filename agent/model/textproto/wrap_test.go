package textproto

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"iter"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"companion/agent/model"
)

var update = flag.Bool("update", false, "rewrite golden files")

// fakeModel yields scripted chunks (then err, when set) and records the
// request it got.
type fakeModel struct {
	chunks []*model.Chunk
	err    error
	got    *model.Request
}

func (f *fakeModel) Stream(_ context.Context, req *model.Request) iter.Seq2[*model.Chunk, error] {
	f.got = req
	return func(yield func(*model.Chunk, error) bool) {
		for _, c := range f.chunks {
			if !yield(c, nil) {
				return
			}
		}
		if f.err != nil {
			yield(nil, f.err)
		}
	}
}

func (f *fakeModel) ContextWindow(string) int { return 1234 }

// textChunks makes one chunk per text piece.
func textChunks(pieces ...string) []*model.Chunk {
	out := make([]*model.Chunk, len(pieces))
	for i, s := range pieces {
		out[i] = &model.Chunk{Parts: []model.Part{text(s)}}
	}
	return out
}

// collect runs the wrapped model and returns its chunks and error.
func collect(t *testing.T, m model.Model, req *model.Request) ([]*model.Chunk, error) {
	t.Helper()
	var out []*model.Chunk
	for ch, err := range m.Stream(context.Background(), req) {
		if err != nil {
			return out, err
		}
		out = append(out, ch)
	}
	return out, nil
}

// allParts joins the chunks' parts, merged.
func allParts(chunks []*model.Chunk) []model.Part {
	var parts []model.Part
	for _, c := range chunks {
		parts = append(parts, c.Parts...)
	}
	return merge(parts)
}

func testTools() []model.ToolDecl {
	return []model.ToolDecl{
		{Name: "read_file", Description: "Reads a file.\n", Parameters: json.RawMessage(`{
			"type": "object",
			"properties": {"file_path": {"type": "string", "description": "The file."}},
			"required": ["file_path"]}`)},
		{Name: "list_roots", Description: "Lists the roots."},
	}
}

func historyRequest() *model.Request {
	img := &model.Blob{MIMEType: "image/png", Data: []byte{0x89, 'P', 'N', 'G'}}
	return &model.Request{
		Model:  "local-model",
		System: "You are a coding agent.",
		Tools:  testTools(),
		Contents: []model.Content{
			{Role: model.RoleUser, Parts: []model.Part{text("Read main.go"), text("and list the roots.")}},
			{Role: model.RoleModel, Parts: []model.Part{
				thought("I should read it."),
				text("Reading it."),
				{FunctionCall: &model.FunctionCall{ID: "call_a", Name: "read_file", Args: map[string]any{"file_path": "main.go"}}},
				{FunctionCall: &model.FunctionCall{ID: "call_b", Name: "list_roots"}},
			}},
			{Role: model.RoleUser, Parts: []model.Part{
				{FunctionResponse: &model.FunctionResponse{ID: "call_a", Name: "read_file",
					Response: map[string]any{"output": "package main\n\nfunc main() {} // <ok> & \"done\""}}},
				{FunctionResponse: &model.FunctionResponse{ID: "call_b", Name: "list_roots",
					Response: map[string]any{"error": "no roots"}}},
			}},
			{Role: model.RoleModel, Parts: []model.Part{thought("only a thought")}},
			{Role: model.RoleModel, Parts: []model.Part{
				{FunctionCall: &model.FunctionCall{ID: "call_c", Name: "read_file", Args: map[string]any{"file_path": "logo.png"}}},
			}},
			{Role: model.RoleUser, Parts: []model.Part{
				{FunctionResponse: &model.FunctionResponse{ID: "call_c", Name: "read_file",
					Response: map[string]any{"output": map[string]any{"bytes": 4}, "note": "structured"},
					Parts:    []model.Part{text("Read image logo.png."), {InlineData: img}}}},
				text("Now explain."),
			}},
			{Role: model.RoleModel, Parts: []model.Part{text("It prints nothing.")}},
		},
	}
}

// checkGolden compares got with testdata/name, rewriting it with -update.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("%s differs:\n%s", name, got)
	}
}

func TestRequestRewrite(t *testing.T) {
	inner := &fakeModel{}
	req := historyRequest()
	before, _ := json.Marshal(req)
	if _, err := collect(t, Wrap(inner), req); err != nil {
		t.Fatal(err)
	}
	got := inner.got
	if got == nil || got.Tools != nil || got.Model != "local-model" {
		t.Fatalf("inner request: %+v", got)
	}
	if after, _ := json.Marshal(req); string(after) != string(before) {
		t.Error("the caller's request was changed")
	}
	checkGolden(t, "system.golden.md", got.System)
	var contents strings.Builder
	enc := json.NewEncoder(&contents)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(got.Contents); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "contents.golden.json", contents.String())
	for _, c := range got.Contents {
		for _, p := range c.Parts {
			if p.FunctionCall != nil || p.FunctionResponse != nil || p.Thought {
				t.Errorf("inner history has a %s part the model cannot take: %+v", c.Role, p)
			}
		}
	}
}

func TestRequestWithoutTools(t *testing.T) {
	inner := &fakeModel{chunks: textChunks("<think>x</think>", readCall)}
	req := &model.Request{System: "Be brief.", Contents: []model.Content{{Role: model.RoleUser, Parts: []model.Part{text("hi")}}}}
	chunks, err := collect(t, Wrap(inner), req)
	if err != nil {
		t.Fatal(err)
	}
	if inner.got.System != "Be brief." || !reflect.DeepEqual(inner.got.Contents, req.Contents) {
		t.Errorf("inner request changed without tools: %+v", inner.got)
	}
	if got, want := allParts(chunks), []model.Part{thought("x"), text(readCall)}; !reflect.DeepEqual(got, want) {
		t.Errorf("parts = %s, want %s", show(got), show(want))
	}
}

func TestStream(t *testing.T) {
	usage := &model.Usage{PromptTokens: 10, OutputTokens: 5, TotalTokens: 15}
	inner := &fakeModel{chunks: append(textChunks("<thi", "nk>Let me ", "check.</think>I'll read", " it.\n```tool_"),
		&model.Chunk{Parts: []model.Part{thought("native thought")}},
		&model.Chunk{Parts: []model.Part{text("call\n{\"name\":\"read_file\",\"arguments\":{\"file_path\":\"a.go\"}}\n``")}},
		&model.Chunk{Parts: []model.Part{text("`")}, FinishReason: model.FinishStop, Usage: usage},
	)}
	w := &wrapped{inner: inner, newID: counter()}
	req := &model.Request{Tools: testTools(), Contents: []model.Content{{Role: model.RoleUser, Parts: []model.Part{text("go")}}}}
	chunks, err := collect(t, w, req)
	if err != nil {
		t.Fatal(err)
	}
	want := []model.Part{thought("Let me check."), text("I'll read it.\n"), thought("native thought"),
		fcall("call_1", "read_file", `{"file_path":"a.go"}`)}
	if got := allParts(chunks); !reflect.DeepEqual(got, want) {
		t.Errorf("parts = %s\nwant %s", show(got), show(want))
	}
	last := chunks[len(chunks)-1]
	if last.FinishReason != model.FinishStop || last.Usage != usage {
		t.Errorf("last chunk %+v lacks the finish reason and usage", last)
	}
	for _, c := range chunks[:len(chunks)-1] {
		if c.FinishReason != model.FinishNone || len(c.Parts) == 0 {
			t.Errorf("chunk before the last: %+v", c)
		}
	}
	if got := w.ContextWindow("x"); got != 1234 {
		t.Errorf("ContextWindow = %d", got)
	}
}

func TestStreamError(t *testing.T) {
	boom := errors.New("boom")
	inner := &fakeModel{chunks: textChunks("partial answer <thi"), err: boom}
	chunks, err := collect(t, Wrap(inner), &model.Request{Tools: testTools()})
	if !errors.Is(err, boom) {
		t.Errorf("err = %v", err)
	}
	if got := allParts(chunks); !reflect.DeepEqual(got, []model.Part{text("partial answer ")}) {
		t.Errorf("parts before the error = %s", show(got))
	}
}

func TestStreamStopsWhenConsumerDoes(t *testing.T) {
	inner := &fakeModel{chunks: textChunks("a", "b", "c")}
	n := 0
	for range Wrap(inner).Stream(context.Background(), &model.Request{}) {
		n++
		break
	}
	if n != 1 {
		t.Errorf("got %d chunks after break", n)
	}
}

func TestRandomIDs(t *testing.T) {
	inner := &fakeModel{chunks: textChunks(readCall + readCall + readCall)}
	chunks, err := collect(t, Wrap(inner), &model.Request{Tools: testTools()})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, p := range allParts(chunks) {
		id := p.FunctionCall.ID
		if !strings.HasPrefix(id, "call_") || len(id) != len("call_")+16 || seen[id] {
			t.Errorf("bad or repeated id %q", id)
		}
		seen[id] = true
	}
	if len(seen) != 3 {
		t.Errorf("%d calls, want 3", len(seen))
	}
}
