package builtin

import (
	"context"
	_ "embed"
	"strings"

	"companion/tools"
)

//go:embed descriptions/write_file.md
var writeFileDescription string

// writeFileParams are write_file's parameters, as Gemini CLI names them.
type writeFileParams struct {
	FilePath string `json:"file_path" required:"true" desc:"The file to write, e.g. \"cmd/tool/main.go\": absolute, or relative to the session root. Missing directories are created."`
	Content  string `json:"content" required:"true" desc:"The file's complete new content."`
}

// writeFileTool creates a file or replaces its whole content.
type writeFileTool struct {
	opts EditOptions
}

func newWriteFile(o EditOptions) tools.Tool {
	desc := strings.NewReplacer("{max_file}", tools.FormatSize(o.MaxFileBytes)).Replace(writeFileDescription)
	t := &writeFileTool{opts: o}
	return tools.Define(tools.Def[writeFileParams]{
		Name: "write_file", Kind: tools.KindEdit,
		Description: desc,
		Prepare:     t.prepare,
	})
}

func (t *writeFileTool) prepare(env *tools.Env, p writeFileParams) (tools.Invocation, error) {
	if strings.TrimSpace(p.FilePath) == "" {
		return nil, tools.ArgErrorf("parameter %q must not be empty", "file_path")
	}
	abs, err := env.Roots.Abs(p.FilePath)
	if err != nil {
		return nil, err
	}
	shown := env.Roots.Display(abs)
	c := &editCall{env: env, opts: t.opts, abs: abs, shown: shown, tool: "write_file", title: "Write " + shown}
	content := p.Content
	c.plan = func(_ context.Context, cur *textFile) (*editPlan, error) {
		return planWrite(cur, content, abs)
	}
	return c, nil
}

// planWrite works out an overwrite: content in the file's line endings, its
// final newline kept, refused when it elides code the file has.
func planWrite(cur *textFile, content, abs string) (*editPlan, error) {
	if !cur.exists {
		return &editPlan{before: cur, newText: content, line: 1}, nil
	}
	if line := findElision(toLF(cur.text), toLF(content), abs); line != "" {
		return nil, elisionError("content", line, "use replace to change only part of the file")
	}
	eol := cur.eol()
	text := keepFinalNewline(cur.text, adaptEOL(content, eol), eol)
	return &editPlan{before: cur, newText: text, line: firstDiffLine(cur.text, text)}, nil
}

// firstDiffLine returns the 1-based line where a and b first differ.
func firstDiffLine(a, b string) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return strings.Count(a[:i], "\n") + 1
}
