package agent

import (
	"context"
	"errors"
	"fmt"

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

// RestoreCheckpoint puts the files back as checkpoint id saved them
// (/undo, /restore) and tells the model, whose picture of the files is
// now stale. The checkpoint the store saved first is noted in the
// journal, so a later /rewind finds the files as they were. It fails
// when checkpoints are off or the store cannot restore.
func (s *Session) RestoreCheckpoint(ctx context.Context, id string) (checkpoint.Restoration, error) {
	if s.opts.Checkpoints == nil {
		return checkpoint.Restoration{}, errors.New("checkpoints are off")
	}
	r, err := s.opts.Checkpoints.Restore(ctx, id)
	if err != nil {
		return r, err
	}
	s.noteCheckpoint(r.Undo.ID)
	s.eng.appendHistory(contentText(fmt.Sprintf("(The user restored the files to checkpoint %s, taken %s. Re-read files before editing them.)", r.Target.ID, r.Target.Label)))
	return r, nil
}
