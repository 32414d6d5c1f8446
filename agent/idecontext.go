package agent

import (
	"context"

	"companion/agent/model"
	"companion/ide"
	"companion/tools"
)

// UpdateIDEContext takes what the user sees in the editor (open files,
// cursor, selection, diagnostics, workspace folders). Workspace folders
// join the session roots only when the editor says they are trusted.
func (s *Session) UpdateIDEContext(c ide.Context) {
	s.ide.Update(c)
	for _, dir := range s.ide.TrustedFolders() {
		if !s.opts.Roots.Contains(dir) {
			if err := s.opts.Roots.Add(dir); err != nil {
				s.opts.Log.Warn("cannot add workspace folder", "dir", dir, "err", err)
			}
		}
	}
}

// withIDEContext puts the editor context (all of it the first time and
// after compression or /clear, then only what changed) before the user's
// prompt: the start of a user turn, never between a call and its answer.
func (s *engine) withIDEContext(ctx context.Context, parts []model.Part) []model.Part {
	text := s.ide.Render(ctx, false)
	if text == "" {
		return parts
	}
	note := model.Part{Text: "<editor_context>\n" + frameData(s.dataNonce, sourceEditor, text) + "\n</editor_context>"}
	return append([]model.Part{note}, parts...)
}

// newIDETracker reads files for the cursor window the way tools do:
// through the editor when it offers, else the disk.
func (s *Session) newIDETracker() *ide.Tracker {
	return ide.NewTracker(func(ctx context.Context, path string) (string, error) {
		files := s.env.Files
		if files == nil {
			files = tools.LocalFiles{}
		}
		return files.ReadTextFile(ctx, path)
	})
}
