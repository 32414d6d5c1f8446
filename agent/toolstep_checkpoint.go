package agent

import (
	"context"

	"companion/tools"
)

// checkpointStep saves what a call that changes something will touch,
// for /undo, before it runs.
func (s *engine) checkpointStep(ctx context.Context, p *prepared, next toolNext) {
	if p.conf != nil {
		s.checkpoint(ctx, p, p.conf)
	}
	next(ctx, p)
}

// checkpoint saves what a mutating call may touch: an edit's files, or
// the whole work tree for anything else. A failure is logged, not fatal:
// the change still runs, as the user approved it.
func (s *engine) checkpoint(ctx context.Context, p *prepared, conf *tools.Confirmation) {
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
	save := s.opts.Checkpoints.Save // a command or an MCP tool may change anything
	if conf.Type == tools.ConfirmEdit && len(paths) > 0 {
		save = s.opts.Checkpoints.SaveFiles
	}
	cp, err := save(ctx, "before "+p.inv.Title(), paths)
	if err != nil {
		s.opts.Log.Warn("checkpoint failed", "tool", p.fc.Name, "err", err)
		return
	}
	s.noteCheckpoint(cp.ID)
}
