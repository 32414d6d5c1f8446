package agent

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"companion/agent/memory"
	"companion/tools"
)

// Memory is the session's instruction files (the user's, then the
// project's from its root down to the session root, as Options.Memory
// says), loaded on first use and kept: the system prompt is built from
// them and /memory shows and adds to them. Nil when they cannot be
// loaded (the failure is logged); a later call tries again.
func (s *Session) Memory(ctx context.Context) *memory.Memory {
	if mem := s.memory.get(); mem != nil {
		return mem
	}
	mem, err := memory.Load(ctx, s.opts.Memory, "", s.Root())
	if err != nil {
		s.opts.Log.Warn("cannot load memory files", "err", err)
		return nil
	}
	s.memory.set(mem)
	return mem
}

// ReloadMemory reads the instruction files again (after one was edited
// or added to) and has the system prompt rebuilt from them for the next
// request, so the model sees the change without a new session.
func (s *Session) ReloadMemory(ctx context.Context) error {
	mem := s.Memory(ctx)
	if mem == nil {
		return errors.New("the memory files cannot be loaded; see the log")
	}
	if err := mem.Refresh(ctx); err != nil {
		return err
	}
	s.eng.system.set("")
	return nil
}

// touchMemory returns the instruction files of folders a tool call
// touched below the session root that were not loaded yet (each file is
// added once), for the model to read with the call's result.
func (s *Session) touchMemory(locs []tools.Location) string {
	mem := s.memory.get()
	if mem == nil {
		return ""
	}
	var b strings.Builder
	for _, l := range locs {
		if added, ok := mem.Touch(filepath.Dir(l.Path)); ok && added != "" {
			fmt.Fprintf(&b, "(Instructions that apply to files in %s:)\n%s\n", filepath.Dir(l.Path), added)
		}
	}
	return b.String()
}
