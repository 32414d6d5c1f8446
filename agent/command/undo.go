package command

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"companion/agent/checkpoint"
)

// undoMark remembers what the last /undo did: the checkpoint it
// restored and the one it saved first. While that saved one is still the
// newest, the next /undo steps further back instead of undoing the undo.
type undoMark struct{ target, saved string }

// undo restores the newest checkpoint, or, right after an /undo, the
// change before the one it undid.
func (c *commands) undo(ctx context.Context) string {
	if c.cfg.checkpoints == nil {
		return "Checkpoints are off, so there is nothing to undo."
	}
	list, err := c.cfg.checkpoints.List(ctx)
	if err != nil || len(list) == 0 {
		return "There is no change to undo."
	}
	i := undoTarget(list, c.lastUndo())
	if i < 0 {
		return "There is no older change to undo. `/restore` lists every checkpoint."
	}
	r, msg := c.restore(ctx, list[i].ID)
	if r.Undo.ID != "" {
		c.setUndo(undoMark{target: r.Target.ID, saved: r.Undo.ID})
		msg += fmt.Sprintf(" `/undo` again steps further back; `/restore %s` puts back what was there.", r.Undo.ID)
	}
	return msg
}

// undoTarget is the index in list (newest first) of the checkpoint /undo
// restores, or -1 when there is none left: the newest, unless the newest
// is what the previous /undo saved; then the next older change than the
// one it restored (checkpoints taken before a restore are skipped).
func undoTarget(list []checkpoint.Checkpoint, mark undoMark) int {
	if mark.saved == "" || list[0].ID != mark.saved {
		return 0
	}
	at := slices.IndexFunc(list, func(c checkpoint.Checkpoint) bool { return c.ID == mark.target })
	if at < 0 {
		return -1
	}
	for j := at + 1; j < len(list); j++ {
		if !strings.HasPrefix(list[j].Label, checkpoint.RestoreLabelPrefix) {
			return j
		}
	}
	return -1
}

// restoreCommand lists checkpoints, or restores the one named.
func (c *commands) restoreCommand(ctx context.Context, id string) string {
	if c.cfg.checkpoints == nil {
		return "Checkpoints are off."
	}
	if id != "" {
		c.setUndo(undoMark{})
		r, msg := c.restore(ctx, id)
		if r.Undo.ID != "" {
			msg += " `/undo` puts back what was there."
		}
		return msg
	}
	list, err := c.cfg.checkpoints.List(ctx)
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

// restore puts the files back to checkpoint id (the session tells the
// model). It returns what was done (empty when it failed) and the user's
// message.
func (c *commands) restore(ctx context.Context, id string) (checkpoint.Restoration, string) {
	r, err := c.s.RestoreCheckpoint(ctx, id)
	if err != nil {
		return checkpoint.Restoration{}, fmt.Sprintf("Cannot restore %s: %v", id, err)
	}
	return r, fmt.Sprintf("Restored checkpoint `%s` (%s): %d files written, %d removed.",
		r.Target.ID, r.Target.Label, len(r.Written), len(r.Removed))
}

// lastUndo is what the last /undo did.
func (c *commands) lastUndo() undoMark {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.undone
}

// setUndo remembers what an /undo did; the zero mark forgets it.
func (c *commands) setUndo(m undoMark) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.undone = m
}
