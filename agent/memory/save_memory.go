package memory

import (
	"context"
	_ "embed"
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	"companion/tools"
)

//go:embed descriptions/save_memory.md
var saveMemoryDescription string

// saveMemoryParams are save_memory's parameters, as Gemini CLI names them.
type saveMemoryParams struct {
	Fact string `json:"fact" required:"true" desc:"The fact to remember: one short, self-contained sentence."`
}

// SaveMemoryTool returns the save_memory tool, which appends a fact under
// the AddedSection of fileName (default AGENTS.md) in userDir. The file lies
// outside the workspace, so every call asks the user with an edit
// confirmation; it is read and written on the local disk, never through the
// editor.
func SaveMemoryTool(userDir, fileName string) tools.Tool {
	if fileName == "" {
		fileName = DefaultFileNames()[0]
	}
	path := filepath.Join(userDir, fileName)
	return tools.Define(tools.Def[saveMemoryParams]{
		Name: "save_memory", Kind: tools.KindEdit,
		Description: strings.ReplaceAll(saveMemoryDescription, "{path}", path),
		Prepare: func(_ *tools.Env, p saveMemoryParams) (tools.Invocation, error) {
			return prepareSave(path, p)
		},
	})
}

// prepareSave checks the fact to append to the memory file at path.
func prepareSave(path string, p saveMemoryParams) (tools.Invocation, error) {
	fact := cleanFact(p.Fact)
	if fact == "" {
		return nil, fmt.Errorf("%w: parameter %q must not be empty", tools.ErrInvalidArgs, "fact")
	}
	return &saveMemoryCall{path: path, fact: fact}, nil
}

// saveMemoryCall is one validated save_memory call.
type saveMemoryCall struct {
	path string
	fact string

	// mu guards modified.
	mu sync.Mutex
	// modified is the file's text as the user edited the proposal, or nil.
	modified *string
}

func (c *saveMemoryCall) Title() string {
	const max = 60
	if r := []rune(c.fact); len(r) > max {
		return "Save memory: " + string(r[:max]) + "…"
	}
	return "Save memory: " + c.fact
}

func (c *saveMemoryCall) Locations() []tools.Location {
	return []tools.Location{{Path: c.path}}
}

// UseModifiedContent implements tools.Modifiable: Execute writes the text
// the user settled on in their diff view.
func (c *saveMemoryCall) UseModifiedContent(text string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.modified = &text
}

// Confirmation shows the memory file before and after the fact is added.
func (c *saveMemoryCall) Confirmation(context.Context) (*tools.Confirmation, error) {
	old, _, err := readMemoryFile(c.path)
	if err != nil {
		return nil, err
	}
	text, err := withFact(deref(old), c.fact)
	if err != nil {
		return nil, err
	}
	return &tools.Confirmation{Type: tools.ConfirmEdit, Title: c.Title(), Path: c.path, OldText: old, NewText: text}, nil
}

// Execute reads the file again and appends the fact (or writes the user's
// edited text).
func (c *saveMemoryCall) Execute(ctx context.Context, _ tools.Output) (*tools.Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	old, mode, err := readMemoryFile(c.path)
	if err != nil {
		return tools.ErrorResult(fmt.Sprintf("Could not read the memory file: %v", err)), nil
	}
	c.mu.Lock()
	modified := c.modified
	c.mu.Unlock()
	text := ""
	if modified != nil {
		text = *modified
	} else if text, err = withFact(deref(old), c.fact); err != nil {
		return tools.ErrorResult(err.Error()), nil
	}
	if err := tools.WriteFileAtomic(c.path, []byte(text), mode); err != nil {
		return tools.ErrorResult(fmt.Sprintf("Could not save the memory: %v", err)), nil
	}
	msg := fmt.Sprintf("Saved to memory: %q.", c.fact)
	if modified != nil {
		msg = "Saved the memory file as the user edited it."
	}
	return &tools.Result{
		Text: msg,
		Diff: &tools.Diff{Path: c.path, OldText: old, NewText: text},
	}, nil
}
