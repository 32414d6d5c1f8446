package builtin

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"companion/tools"
)

// editPlan is the change an edit call works out: the file as it was read
// and its whole new text.
type editPlan struct {
	before *textFile
	// newText is the file's new text (decoded, the file's line endings).
	newText string
	// replacements counts the regions replace changed; 0 for write_file.
	replacements int
	// spans are replace's replacements in the LF text of before, which
	// make the diff of the result cheap; nil for write_file.
	spans []span
	// line is the 1-based first changed line, 0 when unknown.
	line int
	// kind and note say how replace matched old_string, for the model.
	kind matchKind
	note string
}

// planFunc works out an edit against the file's current content. An
// editError is a mistake the model can fix.
type planFunc func(ctx context.Context, cur *textFile) (*editPlan, error)

// editCall is one replace or write_file call. Confirmation works the change
// out and keeps it; Execute writes it, working it out again only when the
// file changed in between, or writes the text the user settled on.
type editCall struct {
	env   *tools.Env
	opts  EditOptions
	abs   string
	shown string
	// title is the call's title; instruction the model's one-line summary.
	title, instruction string
	// tool names the tool in results ("replace", "write_file").
	tool string
	plan planFunc

	// mu guards the fields below. The agent drives a call from one
	// goroutine, but nothing breaks if it does not.
	mu sync.Mutex
	// cached is the plan Confirmation showed, nil before.
	cached *editPlan
	// modified is the text the user edited the proposal into, nil if none.
	modified *string
}

func (c *editCall) Title() string { return c.title }

func (c *editCall) Locations() []tools.Location {
	c.mu.Lock()
	defer c.mu.Unlock()
	loc := tools.Location{Path: c.abs}
	if c.cached != nil {
		loc.Line = c.cached.line
	}
	return []tools.Location{loc}
}

// UseModifiedContent implements Modifiable: Execute writes text, the file
// as the user edited it in their diff view, instead of the proposal.
func (c *editCall) UseModifiedContent(text string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.modified = &text
}

// Confirmation works out the change and shows it as an edit of the whole
// file. An error is the model's mistake (no match, ambiguous, elided code,
// binary file) or a failed read.
func (c *editCall) Confirmation(ctx context.Context) (*tools.Confirmation, error) {
	cur, err := loadText(ctx, c.env, c.abs, c.shown, c.opts.MaxFileBytes)
	if err != nil {
		return nil, err
	}
	p, err := c.plan(ctx, cur)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.cached = p
	c.mu.Unlock()
	title := c.title
	if c.instruction != "" {
		title += ": " + c.instruction
	}
	conf := &tools.Confirmation{Type: tools.ConfirmEdit, Title: title, Path: c.abs, NewText: p.newText}
	if p.before.exists {
		old := p.before.text
		conf.OldText = &old
	}
	return conf, nil
}

// Execute writes the change. The file is read again: when it changed since
// Confirmation the change is worked out anew (or, if the user had edited
// the proposal, nothing is written, since their text was made against the
// old content).
func (c *editCall) Execute(ctx context.Context, _ tools.Output) (*tools.Result, error) {
	cur, err := loadText(ctx, c.env, c.abs, c.shown, c.opts.MaxFileBytes)
	if err != nil {
		return c.failure(ctx, err, "")
	}
	c.mu.Lock()
	p, modified := c.cached, c.modified
	c.mu.Unlock()
	changed := p != nil && !p.before.sameAs(cur)
	if changed && modified != nil {
		return tools.ErrorResult(fmt.Sprintf("%s changed while the user was reviewing your edit, so nothing was written (the user's version was based on the old content). Read the file again and redo the change.", c.shown)), nil
	}
	if p == nil || changed {
		if p, err = c.plan(ctx, cur); err != nil {
			prefix := ""
			if changed {
				prefix = fmt.Sprintf("%s changed after the edit was proposed. ", c.shown)
			}
			return c.failure(ctx, err, prefix)
		}
		c.mu.Lock()
		c.cached = p
		c.mu.Unlock()
	}
	text := p.newText
	if modified != nil {
		text = adaptEOL(*modified, eolOf(p.newText))
	}
	userEdited := text != p.newText
	if err := storeText(ctx, c.env, c.abs, cur, text); err != nil {
		return c.failure(ctx, err, "")
	}
	return c.result(p, text, userEdited), nil
}

// failure turns an error into a result for the model; only cancellation
// stays a Go error.
func (c *editCall) failure(ctx context.Context, err error, prefix string) (*tools.Result, error) {
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	var ee *editError
	if errors.As(err, &ee) {
		return tools.ErrorResult(prefix + ee.msg), nil
	}
	c.env.Log.Debug(c.tool+" failed", "path", c.abs, "err", err)
	return tools.ErrorResult(fmt.Sprintf("%sCould not edit %s: %v", prefix, c.shown, err)), nil
}

// EditRaw is the structured output of replace and write_file for front ends.
type EditRaw struct {
	Path         string `json:"path"`
	Replacements int    `json:"replacements"`
	Created      bool   `json:"created"`
	// Match is how replace found old_string: exact, whitespace or fuzzy.
	Match        string `json:"match,omitempty"`
	UserModified bool   `json:"userModified,omitempty"`
	Added        int    `json:"added"`
	Removed      int    `json:"removed"`
}

// result reports a write: a short message for the model, a markdown summary
// with the diff for the user, and the diff for the editor.
func (c *editCall) result(p *editPlan, written string, userEdited bool) *tools.Result {
	var oldText *string
	before := ""
	if p.before.exists {
		before = p.before.text
		oldText = &before
	}
	d, ok := fileDiff{}, false
	if p.spans != nil && !userEdited {
		d, ok = spanDiff(c.shown, before, written, p.spans)
	}
	if !ok {
		d = unifiedDiff(c.shown, before, written)
	}
	raw := EditRaw{Path: c.abs, Replacements: p.replacements, Created: !p.before.exists,
		UserModified: userEdited, Added: d.added, Removed: d.removed}
	var msg []string
	switch {
	case c.tool == "write_file" && raw.Created:
		msg = append(msg, fmt.Sprintf("Created %s (%d lines).", c.shown, lineCount(written)))
	case c.tool == "write_file":
		msg = append(msg, fmt.Sprintf("Overwrote %s (+%d -%d lines).", c.shown, d.added, d.removed))
	case raw.Created:
		msg = append(msg, fmt.Sprintf("Created %s with new_string (%d lines).", c.shown, lineCount(written)))
	default:
		raw.Match = p.kind.String()
		msg = append(msg, fmt.Sprintf("Edited %s: replaced %d %s (+%d -%d lines).", c.shown, p.replacements,
			plural(p.replacements, "occurrence", "occurrences"), d.added, d.removed))
	}
	if p.note != "" {
		msg = append(msg, p.note)
	}
	if userEdited {
		ud := unifiedDiff(c.shown, p.newText, written)
		msg = append(msg, "The user modified your proposed change before it was written; the file now holds their version. "+
			"What they changed, from your proposal to the final text:\n```diff\n"+ud.text+"```")
	}
	return &tools.Result{
		Text:    strings.Join(msg, "\n"),
		Display: c.display(d, raw),
		Diff:    &tools.Diff{Path: c.abs, OldText: oldText, NewText: written},
		Raw:     raw,
	}
}

// maxDisplayDiffLines caps the diff shown in a result's Display.
const maxDisplayDiffLines = 200

// display is the markdown summary the user sees.
func (c *editCall) display(d fileDiff, raw EditRaw) string {
	verb := "Edited"
	if raw.Created {
		verb = "Created"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** `%s` (+%d −%d)", verb, c.shown, d.added, d.removed)
	if raw.UserModified {
		b.WriteString(", with your changes")
	}
	if c.instruction != "" {
		b.WriteString("\n\n" + c.instruction)
	}
	if d.text != "" {
		b.WriteString("\n\n```diff\n" + cutLines(d.text, maxDisplayDiffLines) + "```")
	}
	return b.String()
}

// cutLines keeps the first n lines of text, noting how many were left out.
func cutLines(text string, n int) string {
	i, lines := 0, 0
	for ; i < len(text) && lines < n; i++ {
		if text[i] == '\n' {
			lines++
		}
	}
	if i >= len(text) {
		return text
	}
	return text[:i] + fmt.Sprintf("... (%d more lines)\n", strings.Count(text[i:], "\n"))
}

// lineCount counts lines, a last line without a newline included.
func lineCount(s string) int {
	n := strings.Count(s, "\n")
	if s != "" && !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}
