package builtin

import (
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

// The patterns below are compiled on first use, once, and only read: an
// edit is the first to need them, not the process start.

// elisionPhrases are comment texts (lower-cased, markers removed) that stand
// for code left out: "rest of the code unchanged", "... existing code ...",
// "other methods remain the same", "code omitted for brevity".
var elisionPhrases = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(\.\.\.|…)?\s*(the\s+)?(rest|remainder)\s+of\s+(the\s+)?(code|file|function|method|class|implementation|module|body|component|struct|test|tests|content|contents|lines|logic|imports|cases)\b` +
		`|^(\.\.\.|…)?\s*((keep|keeping|keeps)\s+)?(the\s+)?existing\s+(code|imports|methods|functions|content|implementation|logic|tests|fields|cases|definitions|properties|styles|rules)\b` +
		`|\b(code|implementation|body|rest|everything\s+else|other\s+\w+|remaining\s+\w+|previous\s+\w+|existing\s+\w+)\s+((remains?|stays?|is|are|left)\s+)?(unchanged|the\s+same|as\s+before|omitted|elided)\b` +
		`|\bomitted\s+for\s+brevity\b`)
})

// dotsOnly matches an ellipsis and nothing else: "...", "…", ". . .".
var dotsOnly = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\.\s*){3,}$|^…$`) })

// findElision returns the first line of newText that stands for code left
// out rather than being code, or "". It is conservative: only comment lines
// that are an ellipsis or an elision phrase, and bare "..." lines outside
// Python and prose, count, and only when oldText does not hold the same
// line (then the placeholder was already there).
func findElision(oldText, newText, path string) string {
	if strings.TrimSpace(oldText) == "" {
		return ""
	}
	had := map[string]bool{}
	for l := range strings.Lines(oldText) {
		had[strings.TrimSpace(l)] = true
	}
	bareDots := !dotsAreCode(path)
	hashComments := !isMarkdown(path)
	for l := range strings.Lines(newText) {
		t := strings.TrimSpace(l)
		if t == "" || had[t] {
			continue
		}
		body, comment := commentBody(t, hashComments)
		switch {
		case !comment:
			if bareDots && dotsOnly().MatchString(t) {
				return t
			}
		case dotsOnly().MatchString(body), elisionPhrases().MatchString(strings.ToLower(body)):
			return t
		}
	}
	return ""
}

// elisionError tells the model why text with a placeholder is refused;
// param names the parameter and hint says how else to make the change.
func elisionError(param, line, hint string) error {
	return editErrorf("%s contains the placeholder line %q, which stands for code that was left out. "+
		"The text is written literally, so that line would replace real code and nothing was changed. "+
		"Write out the complete text (every line that should remain), or %s.", param, line, hint)
}

// commentBody strips comment markers from a trimmed line that is wholly a
// comment and reports whether it was one. hash says whether '#' starts a
// comment (not in Markdown, where it makes a heading).
func commentBody(t string, hash bool) (string, bool) {
	// Markers that open and may close a comment, longest first.
	pairs := [...][2]string{
		{"{/*", "*/}"}, {"/*", "*/"}, {"<!--", "-->"}, {"//", ""}, {"--", ""}, {"#", ""}, {";", ""}, {"%", ""}, {"*", ""},
	}
	for _, p := range pairs {
		if p[0] == "#" && !hash {
			continue
		}
		if !strings.HasPrefix(t, p[0]) {
			continue
		}
		body := strings.TrimPrefix(t, p[0])
		if p[1] != "" {
			body = strings.TrimSuffix(body, p[1])
		}
		return strings.Trim(strings.TrimSpace(body), "*/#-;% "), true
	}
	return "", false
}

// dotsAreCode reports whether a line of just "..." may be real content in
// the file: Python's Ellipsis and prose.
func dotsAreCode(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".py", ".pyi", ".txt", ".rst", ".adoc", ".org", "":
		return true
	}
	return isMarkdown(path)
}

func isMarkdown(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".md", ".markdown", ".mdx":
		return true
	}
	return false
}
