package builtin

import (
	"context"
	_ "embed"
	"strconv"
	"strings"

	"companion/tools"
)

//go:embed descriptions/replace.md
var replaceDescription string

// replaceParams are replace's parameters, as Gemini CLI names them.
type replaceParams struct {
	FilePath      string `json:"file_path" required:"true" desc:"The file to change, e.g. \"pkg/parse/parse.go\": absolute, or relative to the session root."`
	OldString     string `json:"old_string" required:"true" desc:"The exact text to replace, copied from the file with its whitespace and enough surrounding lines to match one place. Empty to create a new file."`
	NewString     string `json:"new_string" required:"true" desc:"The text that replaces old_string, written out in full (no placeholders for unchanged code)."`
	AllowMultiple bool   `json:"allow_multiple" default:"false" desc:"Replace every occurrence of old_string instead of requiring exactly one."`
	Instruction   string `json:"instruction" desc:"One line saying what the change does and why, shown to the user, e.g. \"Return an error on empty input instead of panicking.\""`
}

// replaceTool replaces text in a file, or creates one.
type replaceTool struct {
	opts EditOptions
}

func newReplace(o EditOptions) tools.Tool {
	desc := strings.NewReplacer(
		"{fuzzy_percent}", strconv.Itoa(percent(o.FuzzyThreshold)),
		"{max_file}", tools.FormatSize(o.MaxFileBytes),
	).Replace(replaceDescription)
	t := &replaceTool{opts: o}
	return tools.Define(tools.Def[replaceParams]{
		Name: "replace", Kind: tools.KindEdit,
		Description: desc,
		Prepare:     t.prepare,
	})
}

// prepare checks what needs no file: the path, that the strings differ, and
// that new_string elides no code.
func (t *replaceTool) prepare(env *tools.Env, p replaceParams) (tools.Invocation, error) {
	if strings.TrimSpace(p.FilePath) == "" {
		return nil, tools.ArgErrorf("parameter %q must not be empty", "file_path")
	}
	old, repl := toLF(p.OldString), toLF(p.NewString)
	if old == repl {
		return nil, tools.ArgErrorf("old_string and new_string are the same, so nothing would change. Give the new text as new_string.")
	}
	if line := findElision(old, repl, p.FilePath); line != "" {
		return nil, elisionError("new_string", line, "replace a smaller part of the file so that new_string stays short")
	}
	abs, err := env.Roots.Abs(p.FilePath)
	if err != nil {
		return nil, err
	}
	shown := env.Roots.Display(abs)
	c := &editCall{env: env, opts: t.opts, abs: abs, shown: shown, tool: "replace",
		title: "Edit " + shown, instruction: oneLine(p.Instruction)}
	r := matchParams{old: old, new: repl, allowMultiple: p.AllowMultiple, threshold: t.opts.FuzzyThreshold, shown: shown}
	c.plan = func(ctx context.Context, cur *textFile) (*editPlan, error) { return planReplace(ctx, cur, r) }
	return c, nil
}

// planReplace works out the file's new text: new_string in place of
// old_string, in the file's line endings, with its final newline kept.
func planReplace(ctx context.Context, cur *textFile, r matchParams) (*editPlan, error) {
	if r.old == "" {
		if cur.exists {
			return nil, editErrorf("%s already exists; an empty old_string only creates new files. To change it, give the text to replace as old_string, or use write_file to replace its whole content.", r.shown)
		}
		return &editPlan{before: cur, newText: r.new, line: 1}, nil
	}
	if !cur.exists {
		return nil, editErrorf("File not found: %s. To create it, call replace with an empty old_string, or use write_file.", r.shown)
	}
	lf := newLFText(cur.text)
	m, err := findMatch(ctx, lf.text, r)
	if err != nil {
		return nil, err
	}
	eol := cur.eol()
	text := keepFinalNewline(cur.text, lf.apply(m.spans, eol), eol)
	if text == cur.text {
		return nil, editErrorf("The edit would leave %s unchanged: old_string matched once whitespace was ignored, and new_string differs from it only in indentation, which is fitted to the file. Nothing was written.", r.shown)
	}
	return &editPlan{before: cur, newText: text, replacements: len(m.spans), spans: m.spans, line: m.lines[0], kind: m.kind, note: m.note()}, nil
}

// maxInstruction caps the instruction shown to the user, in bytes.
const maxInstruction = 200

// oneLine keeps the first line of s, trimmed and cut to maxInstruction.
func oneLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	s = strings.TrimSpace(s)
	if len(s) > maxInstruction {
		cut := maxInstruction
		for cut > 0 && !utf8RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

// utf8RuneStart reports whether b can start a UTF-8 sequence.
func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }
