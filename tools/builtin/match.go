package builtin

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// matchKind says how replace found old_string in a file.
type matchKind int

// How old_string was found, tried in this order.
const (
	// matchExact: the text itself.
	matchExact matchKind = iota
	// matchFlexible: whole lines equal once leading and trailing whitespace
	// is trimmed; new_string is re-indented to fit.
	matchFlexible
	// matchFuzzy: the clearly most similar run of lines.
	matchFuzzy
)

// String names the kind in Raw output.
func (k matchKind) String() string {
	switch k {
	case matchFlexible:
		return "whitespace"
	case matchFuzzy:
		return "fuzzy"
	}
	return "exact"
}

// span is one replacement in LF text: bytes [start, end) become text.
type span struct {
	start, end int
	text       string
}

// match is where old_string was found and what replaces it.
type match struct {
	kind  matchKind
	spans []span
	// lines are the 1-based first lines of the replaced regions; for a
	// flexible or fuzzy match of one region, last is its last line.
	lines []int
	last  int
	// score is the similarity of a fuzzy match, in [0, 1].
	score float64
}

// note tells the model how a match that was not exact was made, or "".
func (m match) note() string {
	switch m.kind {
	case matchFlexible:
		return fmt.Sprintf("old_string did not match exactly; it matched at %s once leading and trailing whitespace was ignored, and new_string was re-indented to fit the file.",
			lineList(m.lines))
	case matchFuzzy:
		return fmt.Sprintf("old_string did not match exactly; the closest text, lines %d-%d (%d%% similar), was replaced. Read those lines to check the result.",
			m.lines[0], m.last, percent(m.score))
	}
	return ""
}

// matchParams is what findMatch looks for and how.
type matchParams struct {
	// old and new are old_string and new_string with LF line ends.
	old, new      string
	allowMultiple bool
	// threshold is the least similarity a fuzzy match needs; above 1 no
	// fuzzy match is ever made.
	threshold float64
	// shown is the file's name in messages.
	shown string
}

// findMatch finds p.old in text (LF line ends): exactly, then line by line
// ignoring leading and trailing whitespace, then fuzzily. An editError
// explains a miss or an ambiguous match in terms the model can act on.
func findMatch(ctx context.Context, text string, p matchParams) (match, error) {
	if at := exactMatches(text, p.old); len(at) > 0 {
		lines := lineNumbers(text, at)
		if len(at) > 1 && !p.allowMultiple {
			return match{}, ambiguousError(p.shown, lines, "")
		}
		spans := make([]span, len(at))
		for i, a := range at {
			spans[i] = span{start: a, end: a + len(p.old), text: p.new}
		}
		return match{kind: matchExact, spans: spans, lines: lines, score: 1}, nil
	}
	doc := newLineDoc(text)
	oldLines := strings.Split(strings.TrimSuffix(p.old, "\n"), "\n")
	if isBlank(oldLines) {
		return match{}, editErrorf("old_string (only whitespace) was not found in %s. Give old_string as text copied from the file.", p.shown)
	}
	newLines := strings.Split(strings.TrimSuffix(p.new, "\n"), "\n")
	if starts := doc.flexibleMatches(trimAll(oldLines)); len(starts) > 0 {
		lines := make([]int, len(starts))
		spans := make([]span, len(starts))
		for i, s := range starts {
			lines[i] = s + 1
			repl := reindent(newLines, oldLines, doc.window(s, len(oldLines)))
			spans[i] = doc.replaceLines(s, len(oldLines), strings.Join(repl, "\n"), p.new == "")
		}
		if len(starts) > 1 && !p.allowMultiple {
			return match{}, ambiguousError(p.shown, lines, " once leading and trailing whitespace is ignored")
		}
		return match{kind: matchFlexible, spans: spans, lines: lines, last: starts[0] + len(oldLines), score: 1}, nil
	}
	if err := ctx.Err(); err != nil {
		return match{}, err
	}
	cands, err := fuzzyCandidates(ctx, doc.trimmed, trimAll(oldLines))
	if err != nil {
		return match{}, err
	}
	return decideFuzzy(doc, cands, oldLines, newLines, p)
}

// decideFuzzy accepts the best fuzzy candidate when it is similar enough and
// clearly better than the runner-up.
func decideFuzzy(doc *lineDoc, cands []candidate, oldLines, newLines []string, p matchParams) (match, error) {
	m := len(oldLines)
	if len(cands) == 0 {
		return match{}, editErrorf("old_string was not found in %s, and no similar text was found there. Read the file again (it may have changed) and copy old_string exactly from it, including whitespace.", p.shown)
	}
	best := cands[0]
	if best.score < p.threshold || best.minLine < fuzzyMinLine || nonBlank(oldLines) < fuzzyMinLines {
		return match{}, editErrorf("old_string was not found in %s. The closest text is lines %d-%d (%d%% similar):\n```\n%s\n```\nRead the file again and copy old_string exactly from it, including whitespace.",
			p.shown, best.start+1, best.start+m, percent(best.score), excerpt(doc.window(best.start, m)))
	}
	if len(cands) > 1 && cands[1].score >= best.score-fuzzyMargin {
		second := cands[1]
		return match{}, editErrorf("old_string was not found exactly in %s. The closest texts, lines %d-%d and lines %d-%d, are about equally similar (%d%% and %d%%), so nothing was changed. Copy old_string exactly from the file, with enough surrounding lines to match one place.",
			p.shown, best.start+1, best.start+m, second.start+1, second.start+m, percent(best.score), percent(second.score))
	}
	repl := reindent(newLines, oldLines, doc.window(best.start, m))
	sp := doc.replaceLines(best.start, m, strings.Join(repl, "\n"), p.new == "")
	return match{kind: matchFuzzy, spans: []span{sp}, lines: []int{best.start + 1}, last: best.start + m, score: best.score}, nil
}

// ambiguousError says where old_string matched when it should match once.
func ambiguousError(shown string, lines []int, how string) error {
	return editErrorf("old_string matches %d places in %s%s: %s. Nothing was changed. Add surrounding lines to old_string so that it matches exactly one place, or set allow_multiple to true to replace every occurrence.",
		len(lines), shown, how, lineList(lines))
}

// exactMatches returns the offsets of old's non-overlapping occurrences.
func exactMatches(text, old string) []int {
	if old == "" {
		return nil
	}
	var at []int
	for i := 0; i <= len(text); {
		j := strings.Index(text[i:], old)
		if j < 0 {
			break
		}
		at = append(at, i+j)
		i += j + len(old)
	}
	return at
}

// lineNumbers returns the 1-based lines of ascending offsets in text.
func lineNumbers(text string, offsets []int) []int {
	lines := make([]int, len(offsets))
	line, from := 1, 0
	for i, off := range offsets {
		line += strings.Count(text[from:off], "\n")
		from = off
		lines[i] = line
	}
	return lines
}

// maxListedLines caps the line numbers an error lists.
const maxListedLines = 20

// lineList renders line numbers for a sentence: "line 4", "lines 4, 9 and 12".
func lineList(lines []int) string {
	if len(lines) == 1 {
		return "line " + strconv.Itoa(lines[0])
	}
	shown := lines[:min(len(lines), maxListedLines)]
	parts := make([]string, len(shown))
	for i, l := range shown {
		parts[i] = strconv.Itoa(l)
	}
	if len(lines) > len(shown) {
		return fmt.Sprintf("lines %s and %d more", strings.Join(parts, ", "), len(lines)-len(shown))
	}
	return "lines " + strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// maxExcerptLines caps the lines of file text an error quotes.
const maxExcerptLines = 30

// excerpt quotes lines for an error, cut after maxExcerptLines.
func excerpt(lines []string) string {
	if len(lines) <= maxExcerptLines {
		return strings.Join(lines, "\n")
	}
	return strings.Join(lines[:maxExcerptLines], "\n") +
		fmt.Sprintf("\n[... %d more lines]", len(lines)-maxExcerptLines)
}

func percent(f float64) int { return int(f*100 + 0.5) }

// lineDoc is LF text split into lines for line-wise matching. A final
// '\n' does not start an empty last line.
type lineDoc struct {
	text string
	// starts and ends hold each line's offsets in text, '\n' excluded.
	starts, ends []int
	// trimmed holds each line without leading and trailing whitespace.
	trimmed []string
}

func newLineDoc(text string) *lineDoc {
	n := strings.Count(text, "\n") + 1
	d := &lineDoc{text: text, starts: make([]int, 0, n), ends: make([]int, 0, n), trimmed: make([]string, 0, n)}
	add := func(off, end int) {
		d.starts = append(d.starts, off)
		d.ends = append(d.ends, end)
		d.trimmed = append(d.trimmed, strings.TrimSpace(text[off:end]))
	}
	off := 0
	for {
		end := strings.IndexByte(text[off:], '\n')
		if end < 0 {
			if off < len(text) || off == 0 {
				add(off, len(text))
			}
			break
		}
		add(off, off+end)
		off += end + 1
	}
	return d
}

// window returns the n lines from line first (0-based), untrimmed.
func (d *lineDoc) window(first, n int) []string {
	out := make([]string, n)
	for k := range out {
		out[k] = d.text[d.starts[first+k]:d.ends[first+k]]
	}
	return out
}

// flexibleMatches returns the first lines of the non-overlapping runs of
// lines whose trimmed text equals old's (already trimmed).
func (d *lineDoc) flexibleMatches(old []string) []int {
	var starts []int
	m := len(old)
	for i := 0; i+m <= len(d.trimmed); i++ {
		if d.trimmed[i] != old[0] {
			continue
		}
		k := 1
		for k < m && d.trimmed[i+k] == old[k] {
			k++
		}
		if k == m {
			starts = append(starts, i)
			i += m - 1
		}
	}
	return starts
}

// replaceLines returns the span replacing lines [first, first+n) with text.
// When remove is set the lines go entirely, line end included.
func (d *lineDoc) replaceLines(first, n int, text string, remove bool) span {
	last := first + n - 1
	s, e := d.starts[first], d.ends[last]
	if remove {
		if e < len(d.text) {
			e++
		} else if s > 0 {
			s--
		}
	}
	return span{start: s, end: e, text: text}
}

func trimAll(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.TrimSpace(l)
	}
	return out
}

// nonBlank counts the lines that are not blank.
func nonBlank(lines []string) int {
	n := 0
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			n++
		}
	}
	return n
}

func isBlank(lines []string) bool {
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			return false
		}
	}
	return true
}
