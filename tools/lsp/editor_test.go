package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"companion/tools"
)

// fakeEditor answers every request with result (JSON) or err, or has no
// language features when result and err are both empty.
type fakeEditor struct {
	result string
	err    error
	asked  []string
}

func (f *fakeEditor) Language(_ context.Context, _, method string, _, out any) (bool, error) {
	f.asked = append(f.asked, method)
	if f.err != nil {
		return false, f.err
	}
	if f.result == "" {
		return false, nil
	}
	return true, json.Unmarshal([]byte(f.result), out)
}

// TestEditorFirst: with no server for the file, the editor's answer is
// the tool's; an editor without features for the file, or one that
// fails, leaves the model a sentence saying no one serves it; the
// editor's diagnostics answer only when it has features.
func TestEditorFirst(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.x")
	if err := os.WriteFile(path, []byte("alpha beta\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	roots, err := tools.NewRoots(dir)
	if err != nil {
		t.Fatal(err)
	}
	loc := `[{"uri":"file://` + path + `","range":{"start":{"line":0,"character":6},"end":{"line":0,"character":10}}}]`
	diags := `{"kind":"full","items":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}},"severity":1,"message":"bad"}]}`
	for _, tt := range []struct {
		name      string
		ed        *fakeEditor
		want      string
		isError   bool
		diagnosed bool
	}{
		{"editor answers", &fakeEditor{result: loc}, "a.x:1: alpha beta", false, true},
		{"no features", &fakeEditor{}, "neither a language server nor the editor serves", true, false},
		{"editor fails", &fakeEditor{err: errors.New("boom")}, "neither a language server nor the editor serves", true, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := NewPool(PoolOptions{}).Session(SessionOptions{Roots: roots, Editor: tt.ed})
			defer s.Close()
			res, err := s.definition(context.Background(), path, symbolParams{Line: 1, Symbol: "beta"})
			if err != nil || res.IsError != tt.isError || !strings.Contains(res.Text, tt.want) {
				t.Fatalf("definition = %+v, %v; want %q (error %v)", res, err, tt.want, tt.isError)
			}
			if tt.ed.result != "" {
				tt.ed.result = diags
			}
			list, ok := s.EditorDiagnoser().Diagnose(context.Background(), path, "")
			if ok != tt.diagnosed || (ok && (len(list) != 1 || list[0].Message != "bad")) {
				t.Errorf("Diagnose = %v, %v; want answered %v", list, ok, tt.diagnosed)
			}
		})
	}
	plain := NewPool(PoolOptions{}).Session(SessionOptions{Roots: roots})
	defer plain.Close()
	if plain.EditorDiagnoser() != nil {
		t.Error("a session without an editor has an editor diagnoser")
	}
}
