// Package memory loads the instruction files (AGENTS.md, GEMINI.md, CLAUDE.md) the agent
// puts in its system prompt: the user's own, then the project's from its root
// down to the session root, with `@path` imports expanded in place. It adds a
// subdirectory's files when a tool first touches it, appends facts the user
// or the model asks to remember (/memory add, the save_memory tool), and
// reloads on /memory refresh.
//
// It imports tools (for the save_memory tool) and nothing else of companion's
// own.
package memory
