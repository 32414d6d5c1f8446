package agent

import (
	"context"
	"fmt"
	"strings"

	"companion/agent/checkpoint"
	"companion/tools"
)

// Checkpointer saves files before changes and puts them back;
// *checkpoint.Store is the implementation.
type Checkpointer interface {
	Save(ctx context.Context, label string, paths []string) (checkpoint.Checkpoint, error)
	List(ctx context.Context) ([]checkpoint.Checkpoint, error)
	Restore(ctx context.Context, id string) (checkpoint.Restoration, error)
}

// checkpoint saves what a mutating call may touch. A failure is logged,
// not fatal: the change still runs, as the user approved it.
func (s *Session) checkpoint(ctx context.Context, p *prepared, conf *tools.Confirmation) {
	if s.opts.Checkpoints == nil || conf.Type == tools.ConfirmInfo {
		return
	}
	var paths []string
	if conf.Path != "" {
		paths = append(paths, conf.Path)
	}
	for _, l := range p.inv.Locations() {
		paths = append(paths, l.Path)
	}
	if _, err := s.opts.Checkpoints.Save(ctx, "before "+p.inv.Title(), paths); err != nil {
		s.opts.Log.Warn("checkpoint failed", "tool", p.fc.Name, "err", err)
	}
}

// undo restores the newest checkpoint.
func (s *Session) undo(ctx context.Context) string {
	if s.opts.Checkpoints == nil {
		return "Checkpoints are off, so there is nothing to undo."
	}
	list, err := s.opts.Checkpoints.List(ctx)
	if err != nil || len(list) == 0 {
		return "There is no change to undo."
	}
	return s.restore(ctx, list[0].ID)
}

// restoreCommand lists checkpoints, or restores the one named.
func (s *Session) restoreCommand(ctx context.Context, id string) string {
	if s.opts.Checkpoints == nil {
		return "Checkpoints are off."
	}
	if id != "" {
		return s.restore(ctx, id)
	}
	list, err := s.opts.Checkpoints.List(ctx)
	if err != nil {
		return fmt.Sprintf("Cannot list checkpoints: %v", err)
	}
	if len(list) == 0 {
		return "No checkpoints yet."
	}
	var b strings.Builder
	b.WriteString("Checkpoints, newest first (restore one with `/restore <id>`):\n")
	for _, c := range list {
		fmt.Fprintf(&b, "- `%s` %s: %s\n", c.ID, c.Time.Local().Format("15:04:05"), c.Label)
	}
	return b.String()
}

func (s *Session) restore(ctx context.Context, id string) string {
	r, err := s.opts.Checkpoints.Restore(ctx, id)
	if err != nil {
		return fmt.Sprintf("Cannot restore %s: %v", id, err)
	}
	c := r.Target
	s.appendHistory(contentText(fmt.Sprintf("(The user restored the files to checkpoint %s, taken %s. Re-read files before editing them.)", c.ID, c.Label)))
	return fmt.Sprintf("Restored checkpoint `%s` (%s): %d files written, %d removed. `/undo` puts back what was there.",
		c.ID, c.Label, len(r.Written), len(r.Removed))
}
