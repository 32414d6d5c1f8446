package agent

import (
	"context"
	"time"

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

// ideReadyWait bounds how long the first prompt after an IDE connection
// began waits for the IDE's first context, as mcpReadyWait does for MCP
// servers.
const ideReadyWait = 2 * time.Second

// AwaitIDEContext makes the next prompt wait, at most ideReadyWait, until
// first is closed: an IDE is connecting and pushes what the user sees as
// soon as it is connected.
func (s *Session) AwaitIDEContext(first <-chan struct{}) {
	s.ide.Await(first, ideReadyWait)
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

// LanguageServers lists the session's language servers as /status does,
// one line each (state and memory, or how to install a missing one): for
// the editors' status views. Empty when the session has none.
func (s *Session) LanguageServers() []string {
	if s.opts.LanguageServers == nil {
		return []string{}
	}
	return append([]string{}, s.opts.LanguageServers()...)
}
