package builtin

import (
	"strings"
	"testing"
)

func TestDecodeEncodeRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		data string
		text string
		enc  textEncoding
		bom  bool
	}{
		{"plain", "a\nb\n", "a\nb\n", encUTF8, false},
		{"utf-8 bom", bomUTF8 + "héllo\r\n", "héllo\r\n", encUTF8, true},
		{"utf-16le", bomUTF16LE + "h\x00\xe9\x00\n\x00", "hé\n", encUTF16LE, true},
		{"utf-16be", bomUTF16BE + "\x00h\x00\xe9\x00\n", "hé\n", encUTF16BE, true},
		{"invalid utf-8 kept", "caf\xe9\n", "caf\xe9\n", encUTF8, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, ok := decodeText(tt.data)
			if !ok {
				t.Fatal("decodeText refused text")
			}
			if f.text != tt.text || f.enc != tt.enc || f.bom != tt.bom {
				t.Errorf("decoded %q enc %d bom %v, want %q %d %v", f.text, f.enc, f.bom, tt.text, tt.enc, tt.bom)
			}
			back, err := f.encode(f.text)
			if err != nil {
				t.Fatal(err)
			}
			if back != tt.data {
				t.Errorf("encode = %q, want %q", back, tt.data)
			}
		})
	}
}

func TestDecodeRefusesBinary(t *testing.T) {
	for _, data := range []string{"a\x00b", bomUTF16LE + "a\x00\x00\x00"} {
		if _, ok := decodeText(data); ok {
			t.Errorf("decodeText(%q) accepted a binary file", data)
		}
	}
}

func TestLFTextApply(t *testing.T) {
	tests := []struct {
		name  string
		orig  string
		spans func(lf string) []span
		eol   string
		want  string
	}{
		{
			name: "crlf file keeps crlf",
			orig: "a\r\nb\r\nc\r\n",
			spans: func(lf string) []span {
				i := strings.Index(lf, "b\n")
				return []span{{i, i + 2, "x\ny\n"}}
			},
			eol:  "\r\n",
			want: "a\r\nx\r\ny\r\nc\r\n",
		},
		{
			name: "mixed endings outside the edit are untouched",
			orig: "a\r\nb\nc\r\nd\n",
			spans: func(lf string) []span {
				i := strings.Index(lf, "c")
				return []span{{i, i + 1, "C"}}
			},
			eol:  "\n",
			want: "a\r\nb\nC\r\nd\n",
		},
		{
			name: "several spans",
			orig: "x\r\ny\r\nx\r\n",
			spans: func(string) []span {
				return []span{{0, 1, "1"}, {4, 5, "2"}}
			},
			eol:  "\r\n",
			want: "1\r\ny\r\n2\r\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lf := newLFText(tt.orig)
			if strings.Contains(lf.text, "\r") {
				t.Fatalf("LF view %q still has CR", lf.text)
			}
			if got := lf.apply(tt.spans(lf.text), tt.eol); got != tt.want {
				t.Errorf("apply = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestLineEndingHelpers(t *testing.T) {
	if got := eolOf("a\r\nb\r\nc\n"); got != "\r\n" {
		t.Errorf("eolOf(mostly CRLF) = %q", got)
	}
	if got := eolOf("a\r\nb\nc\n"); got != "\n" {
		t.Errorf("eolOf(mostly LF) = %q", got)
	}
	if got := adaptEOL("x\ny\n", "\r\n"); got != "x\r\ny\r\n" {
		t.Errorf("adaptEOL(LF text, CRLF) = %q", got)
	}
	if got := adaptEOL("x\r\ny\n", "\r\n"); got != "x\r\ny\n" {
		t.Errorf("adaptEOL(text with CRLF) = %q, want it unchanged", got)
	}
	for _, tt := range []struct{ old, new, want string }{
		{"a\n", "b", "b\n"},
		{"a\n", "b\n", "b\n"},
		{"a", "b", "b"},
		{"a", "b\n", "b\n"},
		{"a\n", "", ""},
	} {
		if got := keepFinalNewline(tt.old, tt.new, "\n"); got != tt.want {
			t.Errorf("keepFinalNewline(%q, %q) = %q, want %q", tt.old, tt.new, got, tt.want)
		}
	}
}

func TestUnifiedDiffCropsLargeFiles(t *testing.T) {
	var b strings.Builder
	for i := range 1000 {
		b.WriteString("line " + strings.Repeat("x", i%7) + "\n")
	}
	before := b.String()
	lines := strings.SplitAfter(before, "\n")
	lines[500] = "changed\n"
	after := strings.Join(lines, "")
	d := unifiedDiff("f.txt", before, after)
	if d.added != 1 || d.removed != 1 {
		t.Errorf("added %d removed %d, want 1 and 1", d.added, d.removed)
	}
	if !strings.Contains(d.text, "@@ -498,7 +498,7 @@\n") || !strings.Contains(d.text, "+changed\n") {
		t.Errorf("diff:\n%s", d.text)
	}
	if d := unifiedDiff("f", "a\nb", "a\nc"); !strings.Contains(d.text, "\\ No newline at end of file") {
		t.Errorf("diff of a last line without newline:\n%s", d.text)
	}
	if d := unifiedDiff("f", "x\nY", "xzY"); d.added != 1 || d.removed != 2 {
		t.Errorf("diff across a line join: %+v", d)
	}
}

func TestSpanDiff(t *testing.T) {
	var b strings.Builder
	for i := range 3000 {
		b.WriteString("x := f(" + strings.Repeat("a", i%5) + ")\n")
		if i%10 == 0 {
			b.WriteString("old()\n")
		}
	}
	before := b.String()
	after := strings.ReplaceAll(before, "old()", "new()")
	var spans []span
	for _, at := range exactMatches(before, "old()") {
		spans = append(spans, span{at, at + len("old()"), "new()"})
	}
	d, ok := spanDiff("f", before, after, spans)
	if !ok || d.added != 300 || d.removed != 300 {
		t.Fatalf("spanDiff: ok %v, +%d -%d; want 300 each", ok, d.added, d.removed)
	}
	// Replacement k (from 0) is on line 11k+2; the hunk of k=10 starts 3
	// lines earlier.
	if !strings.Contains(d.text, "@@ -109,7 +109,7 @@\n") {
		t.Errorf("hunk headers are off:\n%s", cutLines(d.text, 40))
	}
	// For one change the result is the library's own diff of the texts.
	one := strings.Replace(before, "old()", "new()", 1)
	at := strings.Index(before, "old()")
	d1, ok := spanDiff("f", before, one, []span{{at, at + 5, "new()"}})
	if g := unifiedDiff("f", before, one); !ok || d1 != g {
		t.Errorf("spanDiff and unifiedDiff disagree:\n%s\n%s", d1.text, g.text)
	}
	// Spans that do not produce the text fall back.
	if _, ok := spanDiff("f", before, one+"\n", []span{{at, at + 5, "new()"}}); ok {
		t.Error("spanDiff accepted spans that do not give the new text")
	}
}
