package lsp

import (
	"fmt"
	"strings"
	"testing"

	"companion/lspclient"
	"companion/tools"
)

func TestFindSymbol(t *testing.T) {
	text := "package a\n\tx := maxLen(len(s))\n\tπ := len(s) // π\n"
	tests := []struct {
		line    int
		symbol  string
		want    uint32
		wantErr string
	}{
		{2, "len", 13, ""}, // the whole word, not inside maxLen
		{3, "len", 6, ""},  // π is one UTF-16 unit
		{2, "Len", 9, ""},  // no whole word: the substring
		{2, "nope", 0, "is not on line 2, which reads: x := maxLen(len(s))"},
		{9, "x", 0, "outside the file"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.line, tt.symbol), func(t *testing.T) {
			pos, err := findSymbol(text, tt.line, tt.symbol)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || pos != (lspclient.Position{Line: uint32(tt.line - 1), Character: tt.want}) {
				t.Errorf("pos = %+v, %v; want character %d", pos, err, tt.want)
			}
		})
	}
}

func TestRenderSpots(t *testing.T) {
	dir := t.TempDir()
	roots, err := tools.NewRoots(dir)
	if err != nil {
		t.Fatal(err)
	}
	a, b := dir+"/a.go", dir+"/b.go"
	spots := []spot{{path: b, line: 1}, {path: a, line: 2}, {path: a, line: 2}, {path: a, line: 1}}
	for i := range maxResults {
		spots = append(spots, spot{path: dir + "/c.go", line: i + 1})
	}
	got := renderSpots(roots, spots)
	lines := strings.Split(strings.TrimSpace(got), "\n")
	if lines[0] != "a.go:1: " || lines[1] != "a.go:2: " || lines[2] != "b.go:1: " {
		t.Errorf("order or duplicates wrong:\n%s", got)
	}
	if last := lines[len(lines)-1]; last != "… and 3 more (not listed)" {
		t.Errorf("cap line = %q", last)
	}
}
