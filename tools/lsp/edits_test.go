package lsp

import (
	"testing"

	"companion/lspclient"
)

func TestApplyEdits(t *testing.T) {
	at := func(l1, c1, l2, c2 uint32, s string) lspclient.TextEdit {
		return lspclient.TextEdit{Range: lspclient.Range{Start: lspclient.Position{Line: l1, Character: c1},
			End: lspclient.Position{Line: l2, Character: c2}}, NewText: s}
	}
	tests := []struct {
		name, text string
		edits      []lspclient.TextEdit
		want       string
		wantErr    bool
	}{
		{"two edits, given out of order", "a Old\nb Old\n", []lspclient.TextEdit{at(1, 2, 1, 5, "New"), at(0, 2, 0, 5, "New")}, "a New\nb New\n", false},
		{"after a rune outside the BMP (two UTF-16 units)", "😀 Old\n", []lspclient.TextEdit{at(0, 3, 0, 6, "New")}, "😀 New\n", false},
		{"an insertion at the end", "x\n", []lspclient.TextEdit{at(1, 0, 1, 0, "y\n")}, "x\ny\n", false},
		{"overlapping edits", "abcdef\n", []lspclient.TextEdit{at(0, 0, 0, 3, "x"), at(0, 2, 0, 4, "y")}, "", true},
		{"past the file", "x\n", []lspclient.TextEdit{at(5, 0, 5, 1, "y")}, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := applyEdits(tt.text, tt.edits)
			if (err != nil) != tt.wantErr || got != tt.want {
				t.Errorf("applyEdits = %q, %v; want %q (error %v)", got, err, tt.want, tt.wantErr)
			}
		})
	}
}
