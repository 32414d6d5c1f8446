package agent

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"companion/agent/model"
)

// Commands lists the slash commands the session understands: the built-in
// ones, then those defined in files, by skills and by MCP servers.
func (s *Session) Commands() []Command {
	c := s.cmds
	return append(append(append(c.builtinCommands(), c.fileCommandList()...), c.skillCommandList()...), c.mcpCommands()...)
}

// commands is the session's command layer: the built-in slash commands,
// declared once in builtinTable, and the commands defined in files, by
// skills and by MCP servers. Each command is a method that reads and
// changes the session it embeds; the turn engine hands it every prompt
// that starts with a slash.
type commands struct{ *Session }

// builtinCmd is one built-in slash command: what the editor's command list
// and /help show, and what running it answers.
type builtinCmd struct {
	Command
	// offered reports whether the session offers the command; nil means
	// always.
	offered func(s commands) bool
	// run answers the command; arg is what follows its name, trimmed.
	run func(s commands, ctx context.Context, arg string) string
}

// builtinTable declares every built-in command once: the command list
// and the dispatch of runCommand both read it.
func builtinTable() []builtinCmd {
	return []builtinCmd{
		{Command{Name: "help", Description: "Show the commands and tools companion offers"}, nil,
			func(s commands, _ context.Context, _ string) string { return s.helpText() }},
		{Command{Name: "tools", Description: "List the tools the model may call"}, nil,
			func(s commands, _ context.Context, _ string) string { return s.toolsText() }},
		{Command{Name: "clear", Description: "Forget this conversation and start afresh"}, nil,
			func(s commands, _ context.Context, _ string) string {
				s.eng.clearHistory()
				return "Conversation cleared."
			}},
		{Command{Name: "compress", Description: "Summarise the conversation so far to free context"}, nil,
			func(s commands, ctx context.Context, _ string) string { return s.eng.compress(ctx) }},
		{Command{Name: "model", Description: "Show or switch the model", Hint: "model name"}, nil,
			func(s commands, _ context.Context, arg string) string { return s.modelCommand(arg) }},
		{Command{Name: "mode", Description: "Show or switch the approval mode", Hint: "default | auto_edit | yolo | plan"}, nil,
			commands.modeCommand},
		// /init is a prompt to the model; runPrompt turns it into one.
		{Command{Name: "init", Description: "Look at the project and write a starter AGENTS.md"}, nil, nil},
		{Command{Name: "stats", Description: "Show requests, tokens, time and tool calls, per model and per tool"}, nil,
			func(s commands, _ context.Context, _ string) string { return s.statsText() }},
		{Command{Name: "mcp", Description: "Show the MCP servers, their state and tools; auth NAME authorises one", Hint: "auth NAME"}, nil,
			commands.mcpCommand},
		{Command{Name: "memory", Description: "Show, add to or reload the instruction files", Hint: "show | add <fact> | refresh"}, nil,
			commands.memoryCommand},
		{Command{Name: "undo", Description: "Undo the last file change (again: the change before it)"}, nil,
			func(s commands, ctx context.Context, _ string) string { return s.undo(ctx) }},
		{Command{Name: "restore", Description: "List checkpoints, or restore one", Hint: "checkpoint id"}, nil,
			commands.restoreCommand},
		{Command{Name: "rewind", Description: "List the prompts, or go back to before one (files too)", Hint: "prompt number"}, nil,
			commands.rewindCommand},
		{Command{Name: "status", Description: "Show the model, approval mode, command sandbox and folders"}, nil,
			func(s commands, _ context.Context, _ string) string { return s.statusText() }},
		{Command{Name: "skills", Description: "List the skills the model may activate"}, nil,
			func(s commands, _ context.Context, _ string) string { return s.skillsListing() }},
		{Command{Name: "accept-settings", Description: "Accept this project's new or changed settings for new sessions"},
			func(s commands) bool { return s.opts.AcceptSettings != nil },
			func(s commands, _ context.Context, _ string) string { return s.acceptSettings() }},
	}
}

// builtinCommands lists the built-in commands this session offers.
func (s commands) builtinCommands() []Command {
	var cmds []Command
	for _, b := range builtinTable() {
		if b.offered == nil || b.offered(s) {
			cmds = append(cmds, b.Command)
		}
	}
	return cmds
}

// runCommand answers a slash command without calling the model. Unknown
// commands are reported, not sent to the model.
func (s commands) runCommand(ctx context.Context, text string) (StopReason, error) {
	name, arg, _ := strings.Cut(strings.TrimPrefix(text, "/"), " ")
	arg = strings.TrimSpace(arg)
	out := fmt.Sprintf("Unknown command /%s. Type /help for the list.", name)
	for _, b := range builtinTable() {
		if b.Name == name && b.run != nil {
			out = b.run(s, ctx, arg)
			break
		}
	}
	s.emit(ctx, MessageChunk{Text: out})
	return EndTurn, nil
}

func (s commands) helpText() string {
	var b strings.Builder
	b.WriteString("Commands:\n")
	for _, c := range s.Commands() {
		fmt.Fprintf(&b, "- `/%s`", c.Name)
		if c.Hint != "" {
			fmt.Fprintf(&b, " <%s>", c.Hint)
		}
		fmt.Fprintf(&b, ": %s\n", c.Description)
	}
	b.WriteString("\n")
	b.WriteString(s.toolsText())
	return b.String()
}

func (s commands) toolsText() string {
	var b strings.Builder
	b.WriteString("Tools:\n")
	for _, t := range s.allTools() {
		desc, _, _ := strings.Cut(t.Description(), "\n")
		fmt.Fprintf(&b, "- `%s`: %s\n", t.Name(), desc)
	}
	return b.String()
}

func (s commands) modelCommand(arg string) string {
	if arg == "" {
		return fmt.Sprintf("Model: %s. Available: %s.", s.ModelName(), strings.Join(s.Models(), ", "))
	}
	if err := s.SetModel(arg); err != nil {
		return fmt.Sprintf("Unknown model %q. Available: %s.", arg, strings.Join(s.Models(), ", "))
	}
	return fmt.Sprintf("Model switched to %s.", arg)
}

func (s commands) modeCommand(ctx context.Context, arg string) string {
	if arg == "" {
		return fmt.Sprintf("Mode: %s. Available: default, auto_edit, yolo, plan.", s.Mode())
	}
	if !validMode(arg) {
		return fmt.Sprintf("Unknown mode %q. Available: default, auto_edit, yolo, plan.", arg)
	}
	if err := s.checkMode(arg); err != nil {
		return "Mode not switched: " + err.Error() + "."
	}
	s.setModeAndAnnounce(ctx, arg)
	return fmt.Sprintf("Mode switched to %s.", arg)
}

// initPrompt asks the model to look at the project and write a starter
// AGENTS.md; /init sends it as a normal turn, so the write is reviewed
// like any other edit.
const initPrompt = `Look at this project and write a starter AGENTS.md at its root for coding agents working in it.
First explore: list the top-level files, read the README and the build files (go.mod, package.json, Makefile, pyproject.toml, Cargo.toml, ...), and glance at the main source folders and tests.
Then write AGENTS.md with write_file. Keep it short and factual, in these sections:
## Project — what it is, in two or three sentences.
## Layout — the main folders and what each holds.
## Commands — how to build, test, lint and run it (exact commands found in the project).
## Conventions — code style, naming, testing habits you can see in the code.
Do not invent anything you did not see.`

// initCommand turns /init into its prompt, or says why not.
func (s commands) initCommand() ([]model.Part, string) {
	path := filepath.Join(s.Root(), "AGENTS.md")
	if _, err := os.Stat(path); err == nil {
		return nil, "AGENTS.md already exists at " + path + "; edit it, or delete it and run /init again."
	}
	return []model.Part{{Text: initPrompt}}, ""
}

// tellNotices emits Options.Notices on the session's first prompt.
func (s *Session) tellNotices(ctx context.Context) {
	if told := s.noticed.Swap(true); told {
		return
	}
	for _, n := range s.opts.Notices {
		s.emit(ctx, n)
	}
}

// acceptSettings runs /accept-settings.
func (s commands) acceptSettings() string {
	if s.opts.AcceptSettings == nil {
		return "No project settings are waiting to be accepted."
	}
	out, err := s.opts.AcceptSettings()
	if err != nil {
		return "Cannot accept the project settings: " + err.Error()
	}
	return out
}
