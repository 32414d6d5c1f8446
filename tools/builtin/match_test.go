package builtin

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// applyMatch runs findMatch on text and applies the result.
func applyMatch(t *testing.T, text string, p matchParams) (string, match, error) {
	t.Helper()
	if p.threshold == 0 {
		p.threshold = 0.85
	}
	p.shown = "f.go"
	m, err := findMatch(context.Background(), text, p)
	if err != nil {
		return "", m, err
	}
	return newLFText(text).apply(m.spans, "\n"), m, nil
}

func TestFindMatch(t *testing.T) {
	goFile := "package p\n\nfunc a() {\n\tx := 1\n\tif x > 0 {\n\t\tprintln(x)\n\t}\n}\n"
	twice := "a()\nb()\na()\nc()\na()\n"
	tests := []struct {
		name     string
		text     string
		p        matchParams
		want     string
		kind     matchKind
		lines    []int
		errParts []string
	}{
		{
			name: "exact",
			text: goFile,
			p:    matchParams{old: "\tx := 1\n", new: "\tx := 2\n"},
			want: strings.Replace(goFile, "x := 1", "x := 2", 1),
			kind: matchExact, lines: []int{4},
		},
		{
			name:     "several without allow_multiple",
			text:     twice,
			p:        matchParams{old: "a()", new: "z()"},
			errParts: []string{"matches 3 places in f.go: lines 1, 3 and 5", "allow_multiple", "Nothing was changed"},
		},
		{
			name: "several with allow_multiple",
			text: twice,
			p:    matchParams{old: "a()", new: "z()", allowMultiple: true},
			want: "z()\nb()\nz()\nc()\nz()\n",
			kind: matchExact, lines: []int{1, 3, 5},
		},
		{
			name: "whitespace-flexible, spaces re-indented as the file's tabs",
			text: goFile,
			p: matchParams{
				old: "    if x > 0 {\n        println(x)\n    }",
				new: "    if x > 1 {\n        println(x)\n        println(x * 2)\n    }",
			},
			want: strings.Replace(goFile, "\tif x > 0 {\n\t\tprintln(x)\n\t}", "\tif x > 1 {\n\t\tprintln(x)\n\t\tprintln(x * 2)\n\t}", 1),
			kind: matchFlexible, lines: []int{5},
		},
		{
			name: "whitespace-flexible, deeper new line in the file's unit",
			text: "def f():\n  if x:\n    return 1\n  return 0\n",
			p: matchParams{
				old: "    if x:\n        return 1",
				new: "    if x:\n        if y:\n            return 2\n        return 1",
			},
			want: "def f():\n  if x:\n    if y:\n      return 2\n    return 1\n  return 0\n",
			kind: matchFlexible, lines: []int{2},
		},
		{
			name: "whitespace-flexible with trailing spaces in the file",
			text: "a  \n  b\t\nc\n",
			p:    matchParams{old: "a\nb", new: "a\nB"},
			want: "a\n  B\nc\n",
			kind: matchFlexible, lines: []int{1},
		},
		{
			name:     "whitespace-flexible ambiguous",
			text:     "  x\n  y\n\tx\n\ty\n",
			p:        matchParams{old: "x\ny\n", new: "z\n"},
			errParts: []string{"matches 2 places in f.go once leading and trailing whitespace is ignored: lines 1 and 3"},
		},
		{
			name: "whitespace-flexible with allow_multiple",
			text: "  x\n  y\n\tx\n\ty\n",
			p:    matchParams{old: "x\ny\n", new: "z\n", allowMultiple: true},
			want: "  z\n\tz\n",
			kind: matchFlexible, lines: []int{1, 3},
		},
		{
			name: "whitespace-flexible deletes whole lines",
			text: "a\n  b\n  c\nd\n",
			p:    matchParams{old: "b\nc\n", new: ""},
			want: "a\nd\n",
			kind: matchFlexible, lines: []int{2},
		},
		{
			name: "fuzzy accepts a clearly closest region",
			text: goFile,
			p: matchParams{
				old: "func a() {\n\tx := 1\n\tif x >= 0 {\n\t\tprintln(x)\n\t}\n}",
				new: "func a() {\n\tx := 1\n\tif x != 0 {\n\t\tprintln(x)\n\t}\n}",
			},
			want: strings.Replace(goFile, "x > 0", "x != 0", 1),
			kind: matchFuzzy, lines: []int{3},
		},
		{
			name: "fuzzy refuses two about equally close regions",
			text: "func a() {\n\treturn compute(1, 2)\n}\n\nfunc b() {\n\treturn compute(1, 3)\n}\n",
			p: matchParams{
				old: "\treturn compute(1, 4)\n}",
				new: "\treturn compute(1, 5)\n}",
			},
			errParts: []string{"not found exactly", "lines 2-3 and lines 6-7", "about equally similar", "nothing was changed"},
		},
		{
			name: "no match shows the closest text",
			text: goFile,
			p: matchParams{
				old: "func a() {\n\ty := 7\n\twhile y {\n\t\tprint(y)\n\t}\n}",
				new: "func a() {}",
			},
			errParts: []string{"old_string was not found in f.go. The closest text is lines 3-8 (", "```\nfunc a() {\n\tx := 1\n", "copy old_string exactly"},
		},
		{
			name:     "no match and nothing similar",
			text:     goFile,
			p:        matchParams{old: "zzzzzzzzzzzzzzzz", new: "q"},
			errParts: []string{"not found in f.go, and no similar text was found"},
		},
		{
			name:     "fuzzy off still shows the closest text",
			text:     goFile,
			p:        matchParams{old: "\tx := 11\n", new: "\tx := 2\n", threshold: 1.01},
			errParts: []string{"The closest text is lines 4-4"},
		},
		{
			name:     "whitespace-only old_string",
			text:     goFile,
			p:        matchParams{old: "   \n  ", new: "x"},
			errParts: []string{"only whitespace"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, m, err := applyMatch(t, tt.text, tt.p)
			if tt.errParts != nil {
				var ee *editError
				if !errors.As(err, &ee) {
					t.Fatalf("err = %v, want an editError", err)
				}
				for _, part := range tt.errParts {
					if !strings.Contains(err.Error(), part) {
						t.Errorf("error lacks %q:\n%s", part, err)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("result:\n%q\nwant:\n%q", got, tt.want)
			}
			if m.kind != tt.kind || !slices.Equal(m.lines, tt.lines) {
				t.Errorf("kind %v lines %v, want %v %v", m.kind, m.lines, tt.kind, tt.lines)
			}
		})
	}
}

func TestFuzzyNoteAndScore(t *testing.T) {
	text := "one\ntwo three four\nfive six seven\neight\n"
	_, m, err := applyMatch(t, text, matchParams{old: "two three fuor\nfive six seven", new: "2 3 4\n5 6 7"})
	if err != nil {
		t.Fatal(err)
	}
	if m.kind != matchFuzzy || m.score >= 1 || m.score < 0.85 {
		t.Fatalf("kind %v score %v", m.kind, m.score)
	}
	if note := m.note(); !strings.Contains(note, "lines 2-3") || !strings.Contains(note, "% similar") {
		t.Errorf("note = %q", note)
	}
}

// TestFuzzyRefusesOneWrongLine checks that a window whose lines mostly
// match but one of which is entirely different is not accepted.
func TestFuzzyRefusesOneWrongLine(t *testing.T) {
	var b strings.Builder
	for i := range 20 {
		fmt.Fprintf(&b, "\tvalue%02d := compute(%d)\n", i, i)
	}
	text := b.String()
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	old := slices.Clone(lines[3:13])
	old[5] = "\tcompletely unrelated statement here"
	_, _, err := applyMatch(t, text, matchParams{old: strings.Join(old, "\n"), new: "x"})
	if err == nil || !strings.Contains(err.Error(), "The closest text is lines 4-13") {
		t.Fatalf("err = %v", err)
	}
}

func TestReindent(t *testing.T) {
	tests := []struct {
		name                  string
		newL, oldL, fileLines []string
		want                  []string
	}{
		{
			name:      "same indentation maps exactly",
			newL:      []string{"  a", "    b", "  c"},
			oldL:      []string{"  a", "    b"},
			fileLines: []string{"\ta", "\t\tb"},
			want:      []string{"\ta", "\t\tb", "\tc"},
		},
		{
			name:      "unseen depth uses the file's unit",
			newL:      []string{"a", "  b", "    c"},
			oldL:      []string{"a", "  b"},
			fileLines: []string{"        a", "            b"},
			want:      []string{"        a", "            b", "                c"},
		},
		{
			name:      "dedent below the model's base",
			newL:      []string{"    x", "y"},
			oldL:      []string{"    x"},
			fileLines: []string{"\t\tx"},
			want:      []string{"\t\tx", "\ty"},
		},
		{
			name:      "blank lines stay empty",
			newL:      []string{"a", "   ", "b"},
			oldL:      []string{"a"},
			fileLines: []string{"  a"},
			want:      []string{"  a", "", "  b"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := reindent(tt.newL, tt.oldL, tt.fileLines); !slices.Equal(got, tt.want) {
				t.Errorf("reindent = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestLineList(t *testing.T) {
	many := make([]int, 25)
	for i := range many {
		many[i] = i + 1
	}
	for _, tt := range []struct {
		in   []int
		want string
	}{
		{[]int{7}, "line 7"},
		{[]int{1, 2}, "lines 1 and 2"},
		{many, "lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20 and 5 more"},
	} {
		if got := lineList(tt.in); got != tt.want {
			t.Errorf("lineList(%v) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestNewLineDoc(t *testing.T) {
	for _, tt := range []struct {
		text string
		want []string
	}{
		{"", []string{""}},
		{"a", []string{"a"}},
		{"a\n", []string{"a"}},
		{"a\n\nb", []string{"a", "", "b"}},
		{"a\n\n", []string{"a", ""}},
	} {
		d := newLineDoc(tt.text)
		if got := d.window(0, len(d.starts)); !slices.Equal(got, tt.want) {
			t.Errorf("newLineDoc(%q) lines = %q, want %q", tt.text, got, tt.want)
		}
		if len(d.trimmed) != len(tt.want) || len(d.ends) != len(tt.want) {
			t.Errorf("newLineDoc(%q): %d trimmed, %d ends; want %d", tt.text, len(d.trimmed), len(d.ends), len(tt.want))
		}
	}
}

func TestLevenshtein(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"abc", "", 3}, {"kitten", "sitting", 3}, {"flaw", "lawn", 2}, {"same", "same", 0},
	} {
		if got := levenshtein(tt.a, tt.b); got != tt.want {
			t.Errorf("levenshtein(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}
