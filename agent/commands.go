package agent

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"companion/agent/model"
)

// Commands lists the slash commands the session understands: the built-in
// ones, then those defined in files.
func (s *Session) Commands() []Command {
	return append(append(s.builtinCommands(), s.fileCommandList()...), s.mcpCommands()...)
}

func (s *Session) builtinCommands() []Command {
	cmds := []Command{
		{Name: "help", Description: "Show the commands and tools companion offers"},
		{Name: "tools", Description: "List the tools the model may call"},
		{Name: "clear", Description: "Forget this conversation and start afresh"},
		{Name: "compress", Description: "Summarise the conversation so far to free context"},
		{Name: "model", Description: "Show or switch the model", Hint: "model name"},
		{Name: "mode", Description: "Show or switch the approval mode", Hint: "default | auto_edit | yolo | plan"},
		{Name: "init", Description: "Look at the project and write a starter AGENTS.md"},
		{Name: "stats", Description: "Show tokens used per model and tool calls"},
		{Name: "mcp", Description: "Show the MCP servers, their state and tools"},
		{Name: "memory", Description: "Show, add to or reload the instruction files", Hint: "show | add <fact> | refresh"},
		{Name: "undo", Description: "Undo the last file change (again: the change before it)"},
		{Name: "restore", Description: "List checkpoints, or restore one", Hint: "checkpoint id"},
	}
	if s.opts.AcceptSettings != nil {
		cmds = append(cmds, Command{Name: "accept-settings", Description: "Accept this project's new or changed settings for new sessions"})
	}
	return cmds
}

// runCommand answers a slash command without calling the model. Unknown
// commands are reported, not sent to the model.
func (s *Session) runCommand(ctx context.Context, text string) (StopReason, error) {
	name, arg, _ := strings.Cut(strings.TrimPrefix(text, "/"), " ")
	arg = strings.TrimSpace(arg)
	var out string
	switch name {
	case "help":
		out = s.helpText()
	case "tools":
		out = s.toolsText()
	case "clear":
		s.clearHistory()
		out = "Conversation cleared."
	case "model":
		out = s.modelCommand(arg)
	case "mode":
		out = s.modeCommand(ctx, arg)
	case "compress":
		out = s.compress(ctx)
	case "memory":
		out = s.memoryCommand(ctx, arg)
	case "mcp":
		out = "No MCP servers are configured."
		if s.opts.MCP != nil {
			out = s.opts.MCP.Describe()
		}
	case "stats":
		out = s.statsText()
	case "undo":
		out = s.undo(ctx)
	case "restore":
		out = s.restoreCommand(ctx, arg)
	case "accept-settings":
		out = s.acceptSettings()
	default:
		out = fmt.Sprintf("Unknown command /%s. Type /help for the list.", name)
	}
	s.emit(ctx, MessageChunk{Text: out})
	return EndTurn, nil
}

func (s *Session) helpText() string {
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

func (s *Session) toolsText() string {
	var b strings.Builder
	b.WriteString("Tools:\n")
	for _, t := range s.allTools() {
		desc, _, _ := strings.Cut(t.Description(), "\n")
		fmt.Fprintf(&b, "- `%s`: %s\n", t.Name(), desc)
	}
	return b.String()
}

func (s *Session) modelCommand(arg string) string {
	if arg == "" {
		return fmt.Sprintf("Model: %s. Available: %s.", s.ModelName(), strings.Join(s.Models(), ", "))
	}
	if err := s.SetModel(arg); err != nil {
		return fmt.Sprintf("Unknown model %q. Available: %s.", arg, strings.Join(s.Models(), ", "))
	}
	return fmt.Sprintf("Model switched to %s.", arg)
}

func (s *Session) modeCommand(ctx context.Context, arg string) string {
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

// maxTitleRunes bounds a session title.
const maxTitleRunes = 60

// maybeTitle names the session after its first prompt.
func (s *Session) maybeTitle(ctx context.Context, parts []model.Part) {
	if done := s.titled.Swap(true); done {
		return
	}
	if title := titleFrom(parts); title != "" {
		s.emit(ctx, TitleChanged{Title: title, At: s.opts.Now().UTC().Format(time.RFC3339)})
		s.jw.setTitle(title)
	}
}

// titleFrom takes the first line of the prompt's text, shortened.
func titleFrom(parts []model.Part) string {
	for _, p := range parts {
		line, _, _ := strings.Cut(strings.TrimSpace(p.Text), "\n")
		line = strings.Join(strings.Fields(line), " ")
		if line == "" {
			continue
		}
		if utf8.RuneCountInString(line) > maxTitleRunes {
			r := []rune(line)
			line = strings.TrimSpace(string(r[:maxTitleRunes-1])) + "…"
		}
		return line
	}
	return ""
}
