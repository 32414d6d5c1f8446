package agent

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"companion/agent/model"
	"companion/ide"
	"companion/internal/testkit/agenttest"
	"companion/tools"
)

func lastUserText(req *model.Request) string {
	for i := len(req.Contents) - 1; i >= 0; i-- {
		if req.Contents[i].Role == model.RoleUser {
			var b strings.Builder
			for _, p := range req.Contents[i].Parts {
				b.WriteString(p.Text)
			}
			return b.String()
		}
	}
	return ""
}

func TestIDEContextInPrompts(t *testing.T) {
	m := &agenttest.Model{}
	s, _ := newTestSession(t, m)
	file := filepath.Join(s.Root(), "a.go")
	open := func(line uint32) ide.Context {
		return ide.Context{OpenFiles: []ide.OpenFile{{URI: ide.URIFromPath(file), IsActive: true, Timestamp: 1, Cursor: &ide.Position{Line: line}}}}
	}
	s.UpdateIDEContext(open(1))
	steps := []struct {
		update *ide.Context
		prompt string
		want   string // "" means no editor context in the request
	}{
		{nil, "first", "<editor_context>"},
		{nil, "nothing changed", ""},
		{ptr(open(5)), "cursor moved", "<editor_context>"},
		{nil, "", ""}, // ClearHistory (/clear)
		{nil, "after clear", "<editor_context>"},
	}
	for _, st := range steps {
		if st.update != nil {
			s.UpdateIDEContext(*st.update)
		}
		if st.prompt == "" {
			s.ClearHistory()
			continue
		}
		n := len(m.Requests())
		s.Prompt(context.Background(), userText(st.prompt))
		got := lastUserText(m.Requests()[n])
		if has := strings.Contains(got, "<editor_context>"); has != (st.want != "") {
			t.Errorf("%s: editor context in request = %v:\n%s", st.prompt, has, got)
		}
	}
}

func ptr[T any](v T) *T { return &v }

func TestEditDiagnostics(t *testing.T) {
	et := &editTool{}
	m := &agenttest.Model{Turns: []agenttest.Turn{editTurn("one"), {Chunks: []*model.Chunk{agenttest.Text("ok")}}}}
	s, _ := newTestSession(t, m, func(o *Options) {
		o.Tools = tools.NewRegistry(diffTool{et})
		o.Mode = ModeYolo
	})
	path := filepath.Join(s.Root(), "a.txt")
	s.UpdateIDEContext(ide.Context{Diagnostics: []ide.FileDiagnostics{{URI: ide.URIFromPath(path),
		Diagnostics: []ide.Diagnostic{{Severity: ide.SeverityError, Message: "undefined: foo", Range: ide.Range{Start: ide.Position{Line: 2}}}}}}})
	s.Prompt(context.Background(), userText("edit"))
	resp := m.Requests()[1].Contents
	out := resp[len(resp)-1].Parts[0].FunctionResponse.Response["output"]
	if got, _ := out.(string); !strings.Contains(got, "line 3: error: undefined: foo") {
		t.Errorf("edit result = %q, want the editor's error", got)
	}
}

// diffTool is editTool whose results carry a diff, as real edits do.
type diffTool struct{ *editTool }

func (d diffTool) Prepare(env *tools.Env, args json.RawMessage) (tools.Invocation, error) {
	inv, err := d.editTool.Prepare(env, args)
	return diffCall{inv.(*editCall)}, err
}

type diffCall struct{ *editCall }

func (c diffCall) Execute(ctx context.Context, out tools.Output) (*tools.Result, error) {
	res, err := c.editCall.Execute(ctx, out)
	res.Diff = &tools.Diff{Path: c.path, NewText: c.text}
	return res, err
}
