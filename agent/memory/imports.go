package memory

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"companion/tools"
)

// expander replaces `@path` imports in one instruction file with the
// imported files' content, recursively.
type expander struct {
	l *loader
	// scope is whose the top file is: a project's files (a clone's, not
	// the user's) import from the user's directories only what
	// userImport allows.
	scope scope
	// used counts the bytes imported so far, so a file importing the same
	// large file many times cannot blow the size budget up.
	used int
}

// expand expands the imports in text, the content of file (the path it was
// reached by). stack holds the real paths of the files being imported, the
// top file first; depth is file's import depth (0 for the top file).
func (x *expander) expand(text, file string, stack []string, depth int) string {
	lines := strings.Split(text, "\n")
	var f fence
	for i, line := range lines {
		if f.code(line) || !strings.Contains(line, "@") {
			continue
		}
		lines[i] = x.expandLine(line, file, stack, depth)
	}
	return strings.Join(lines, "\n")
}

// expandLine replaces each import in one line of prose.
func (x *expander) expandLine(line, file string, stack []string, depth int) string {
	refs := findImports(line)
	if len(refs) == 0 {
		return line
	}
	var b strings.Builder
	last := 0
	for _, r := range refs {
		b.WriteString(line[last:r.start])
		b.WriteString(x.importFile(r.path, file, stack, depth+1))
		last = r.end
	}
	b.WriteString(line[last:])
	return b.String()
}

// importFile returns the content of the file an import names, wrapped in
// comments naming it, or a comment saying why it was not imported.
func (x *expander) importFile(ref, from string, stack []string, depth int) string {
	p := ref
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			p = filepath.Join(home, rest)
		}
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(filepath.Dir(from), p)
	}
	p = filepath.Clean(p)
	if !x.l.allowedPath(p) {
		return note("import refused: %s is outside the project and the user's configuration directories", ref)
	}
	real, err := filepath.EvalSymlinks(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return note("import not found: %s", ref)
	case err != nil:
		return note("import failed: %s: %v", ref, err)
	case !x.l.allowedPath(real):
		return note("import refused: %s is outside the project and the user's configuration directories", ref)
	case x.scope == scopeProject && !x.l.inProject(real) && !(userImport(p) && userImport(real)):
		return note("import refused: %s is outside the project; from the user's configuration directories a project file imports only Markdown and text files", ref)
	case slices.Contains(stack, real):
		return note("import skipped: %s is already being imported (an import cycle)", ref)
	case depth > x.l.opts.MaxImportDepth:
		return note("import skipped: %s is nested more than %d imports deep", ref, x.l.opts.MaxImportDepth)
	case x.used >= x.l.opts.MaxBytes:
		return note("import skipped: %s would pass the size limit of the instruction files", ref)
	}
	text, err := readText(real, x.l.opts.MaxBytes)
	if err != nil {
		return note("import failed: %s: %v", ref, err)
	}
	x.used += len(text)
	inner := append(stack[:len(stack):len(stack)], real)
	body := strings.TrimSpace(x.expand(text, p, inner, depth))
	return "<!-- begin import: " + ref + " -->\n" + body + "\n<!-- end import: " + ref + " -->"
}

// allowedPath reports whether imports may read p: it must lie in the
// project root or a user directory.
func (l *loader) allowedPath(p string) bool { return withinAny(l.allowed, p) }

// inProject reports whether p lies in the project root.
func (l *loader) inProject(p string) bool { return withinAny(l.project, p) }

// withinAny reports whether p lies in one of dirs.
func withinAny(dirs []string, p string) bool {
	return slices.ContainsFunc(dirs, func(d string) bool { return tools.Within(d, p) })
}

// userImport reports whether a project's instruction file may import p
// from the user's configuration directories: only Markdown and text
// files, the instructions a user shares between projects. Those
// directories also hold credentials and settings (Claude Code's
// .credentials.json, Gemini CLI's oauth_creds.json, API keys in
// settings.json) and other projects' sessions, which a cloned
// repository's AGENTS.md must not pull into the prompt.
func userImport(p string) bool {
	switch strings.ToLower(filepath.Ext(p)) {
	case ".md", ".markdown", ".txt":
		return true
	}
	return false
}

// note is an HTML comment: invisible when the markdown is rendered, read by
// the model.
func note(format string, a ...any) string {
	return "<!-- " + fmt.Sprintf(format, a...) + " -->"
}

// fence tracks fenced code blocks (``` or ~~~) line by line.
type fence struct {
	// char and n are the open fence's character and length; n is 0 outside
	// a fenced block.
	char byte
	n    int
}

// code takes the next line and reports whether it is code: inside a fenced
// block or one of its fence lines.
func (f *fence) code(line string) bool {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 || t == "" || (t[0] != '`' && t[0] != '~') {
		return f.n > 0
	}
	run := 0
	for run < len(t) && t[run] == t[0] {
		run++
	}
	switch {
	case f.n == 0 && run >= 3:
		f.char, f.n = t[0], run
	case f.n > 0 && t[0] == f.char && run >= f.n && strings.TrimSpace(t[run:]) == "":
		f.n = 0
		return true
	}
	return f.n > 0
}

// ref is one `@path` import in a line: the bytes [start, end) it spans.
type ref struct {
	start, end int
	path       string
}

// findImports finds the imports in a line outside inline code spans: an @
// at the start or after a space or bracket, followed by a path whose last
// element has an extension (trailing punctuation is not part of it).
func findImports(line string) []ref {
	var refs []ref
	for i := 0; i < len(line); {
		switch c := line[i]; {
		case c == '`':
			i = skipCodeSpan(line, i)
			continue
		case c == '@' && (i == 0 || strings.IndexByte(" \t([*", line[i-1]) >= 0):
			j := i + 1
			for j < len(line) && strings.IndexByte(" \t`()[]\"'<>*|", line[j]) < 0 {
				j++
			}
			p := strings.TrimRight(line[i+1:j], ".,:;!?")
			if looksLikeFile(p) {
				refs = append(refs, ref{start: i, end: i + 1 + len(p), path: p})
				i += 1 + len(p)
				continue
			}
		}
		i++
	}
	return refs
}

// skipCodeSpan returns the index after the code span starting with the
// backtick run at i, or after the run when nothing closes it.
func skipCodeSpan(line string, i int) int {
	n := 0
	for i+n < len(line) && line[i+n] == '`' {
		n++
	}
	for j := i + n; j < len(line); {
		if line[j] != '`' {
			j++
			continue
		}
		m := 0
		for j+m < len(line) && line[j+m] == '`' {
			m++
		}
		if m == n {
			return j + m
		}
		j += m
	}
	return i + n
}

// looksLikeFile reports whether p ends in a file name with an extension of
// letters and digits, as in notes.md or ../docs/STYLE.txt.
func looksLikeFile(p string) bool {
	ext := filepath.Ext(p)
	if len(ext) < 2 || len(ext) == len(filepath.Base(p)) {
		return false
	}
	for _, r := range ext[1:] {
		if !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9') {
			return false
		}
	}
	return true
}
