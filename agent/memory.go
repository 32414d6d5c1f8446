package agent

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"companion/agent/memory"
	"companion/tools"
)

// loadMemory loads the instruction files (user, project root down to the
// session root) once, and returns their text.
func (s *Session) loadMemory(ctx context.Context) string {
	mem := s.memory.get()
	if mem == nil {
		var err error
		mem, err = memory.Load(ctx, s.opts.Memory, "", s.Root())
		if err != nil {
			s.opts.Log.Warn("cannot load memory files", "err", err)
			return ""
		}
		s.memory.set(mem)
	}
	return mem.Text()
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

// memoryCommand serves /memory show | add <fact> | refresh.
func (s commands) memoryCommand(ctx context.Context, arg string) string {
	verb, rest, _ := strings.Cut(arg, " ")
	s.loadMemory(ctx)
	mem := s.memory.get()
	if mem == nil {
		return "Memory files could not be loaded; see the log."
	}
	switch verb {
	case "", "show":
		if len(mem.Files()) == 0 {
			return "No memory files are loaded. Add one with `/memory add <fact>` or create AGENTS.md."
		}
		return fmt.Sprintf("Loaded from %s:\n\n%s", strings.Join(mem.Files(), ", "), mem.Text())
	case "add":
		if len(s.opts.Memory.UserDirs) == 0 || strings.TrimSpace(rest) == "" {
			return "Usage: `/memory add <fact>` (needs a user config directory)."
		}
		if err := mem.AddUserMemory(s.opts.Memory.UserDirs[0], strings.TrimSpace(rest)); err != nil {
			return fmt.Sprintf("Could not save the memory: %v", err)
		}
		return s.refreshMemory(ctx, mem, "Saved to your memory file.")
	case "refresh":
		return s.refreshMemory(ctx, mem, "Memory reloaded.")
	}
	return "Usage: `/memory show`, `/memory add <fact>` or `/memory refresh`."
}

// refreshMemory reloads the files and rebuilds the system prompt.
func (s *Session) refreshMemory(ctx context.Context, mem *memory.Memory, done string) string {
	if err := mem.Refresh(ctx); err != nil {
		return fmt.Sprintf("Could not reload memory: %v", err)
	}
	s.eng.system.set("")
	return done
}
