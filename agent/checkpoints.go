package agent

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"companion/agent/checkpoint"
)

// Checkpointer saves files before changes and puts them back;
// *checkpoint.Store is the implementation.
type Checkpointer interface {
	// Save snapshots the whole work tree, keeping paths exactly.
	Save(ctx context.Context, label string, paths []string) (checkpoint.Checkpoint, error)
	// SaveFiles snapshots only paths, before a change that touches nothing
	// else (a file edit); it costs what the files do, not the work tree.
	SaveFiles(ctx context.Context, label string, paths []string) (checkpoint.Checkpoint, error)
	List(ctx context.Context) ([]checkpoint.Checkpoint, error)
	Restore(ctx context.Context, id string) (checkpoint.Restoration, error)
}

// checkpointPreparer is a Checkpointer that gets ready for whole-tree
// snapshots in the background (*checkpoint.Store).
type checkpointPreparer interface {
	// Prepare starts the work and returns at once; stop cancels it and
	// waits until it has ended.
	Prepare(ctx context.Context) (stop func())
}

// prepareCheckpoints starts the checkpoint store's preparation when the
// session opens (new or loaded), so that its first whole-tree snapshot
// does not wait for a first walk of the tree; Close stops it. Nothing
// waits for it here: a file edit's checkpoint interrupts it, and a
// whole-tree one waits for it only while it runs.
func (s *Session) prepareCheckpoints() {
	if p, ok := s.opts.Checkpoints.(checkpointPreparer); ok {
		s.stopPrep = p.Prepare(context.Background())
	}
}

// undoMark remembers what the last /undo did: the checkpoint it
// restored and the one it saved first. While that saved one is still the
// newest, the next /undo steps further back instead of undoing the undo.
type undoMark struct{ target, saved string }

// undo restores the newest checkpoint, or, right after an /undo, the
// change before the one it undid.
func (s commands) undo(ctx context.Context) string {
	if s.opts.Checkpoints == nil {
		return "Checkpoints are off, so there is nothing to undo."
	}
	list, err := s.opts.Checkpoints.List(ctx)
	if err != nil || len(list) == 0 {
		return "There is no change to undo."
	}
	i := undoTarget(list, s.undone.get())
	if i < 0 {
		return "There is no older change to undo. `/restore` lists every checkpoint."
	}
	r, msg := s.restore(ctx, list[i].ID)
	if r.Undo.ID != "" {
		s.undone.set(undoMark{target: r.Target.ID, saved: r.Undo.ID})
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
func (s commands) restoreCommand(ctx context.Context, id string) string {
	if s.opts.Checkpoints == nil {
		return "Checkpoints are off."
	}
	if id != "" {
		s.undone.set(undoMark{})
		r, msg := s.restore(ctx, id)
		if r.Undo.ID != "" {
			msg += " `/undo` puts back what was there."
		}
		return msg
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

// restore puts the files back to checkpoint id and tells the model. It
// returns what was done (empty when it failed) and the user's message.
func (s commands) restore(ctx context.Context, id string) (checkpoint.Restoration, string) {
	r, err := s.opts.Checkpoints.Restore(ctx, id)
	if err != nil {
		return checkpoint.Restoration{}, fmt.Sprintf("Cannot restore %s: %v", id, err)
	}
	c := r.Target
	s.noteCheckpoint(r.Undo.ID) // the files before this restore, for /rewind
	s.eng.appendHistory(contentText(fmt.Sprintf("(The user restored the files to checkpoint %s, taken %s. Re-read files before editing them.)", c.ID, c.Label)))
	return r, fmt.Sprintf("Restored checkpoint `%s` (%s): %d files written, %d removed.",
		c.ID, c.Label, len(r.Written), len(r.Removed))
}
