package command

import (
	"context"
	"fmt"
	"strings"
)

// memoryCommand serves /memory show | add <fact> | refresh.
func (c *commands) memoryCommand(ctx context.Context, arg string) string {
	verb, rest, _ := strings.Cut(arg, " ")
	mem := c.s.Memory(ctx)
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
		if len(c.cfg.memoryDirs) == 0 || strings.TrimSpace(rest) == "" {
			return "Usage: `/memory add <fact>` (needs a user config directory)."
		}
		if err := mem.AddUserMemory(c.cfg.memoryDirs[0], strings.TrimSpace(rest)); err != nil {
			return fmt.Sprintf("Could not save the memory: %v", err)
		}
		return c.reloadMemory(ctx, "Saved to your memory file.")
	case "refresh":
		return c.reloadMemory(ctx, "Memory reloaded.")
	}
	return "Usage: `/memory show`, `/memory add <fact>` or `/memory refresh`."
}

// reloadMemory reloads the files and rebuilds the system prompt; done is
// what the user is told when that worked.
func (c *commands) reloadMemory(ctx context.Context, done string) string {
	if err := c.s.ReloadMemory(ctx); err != nil {
		return fmt.Sprintf("Could not reload memory: %v", err)
	}
	return done
}
