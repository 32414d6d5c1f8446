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
	return append(append(append(s.builtinCommands(), s.fileCommandList()...), s.skillCommandList()...), s.mcpCommands()...)
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
		{Name: "stats", Description: "Show requests, tokens, time and tool calls, per model and per tool"},
		{Name: "mcp", Description: "Show the MCP servers, their state and tools; auth NAME authorises one", Hint: "auth NAME"},
		{Name: "memory", Description: "Show, add to or reload the instruction files", Hint: "show | add <fact> | refresh"},
		{Name: "undo", Description: "Undo the last file change (again: the change before it)"},
		{Name: "restore", Description: "List checkpoints, or restore one", Hint: "checkpoint id"},
		{Name: "rewind", Description: "List the prompts, or go back to before one (files too)", Hint: "prompt number"},
		{Name: "status", Description: "Show the model, approval mode, command sandbox and folders"},
		{Name: "skills", Description: "List the skills the model may activate"},
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
		out = s.mcpCommand(ctx, arg)
	case "stats":
		out = s.statsText()
	case "undo":
		out = s.undo(ctx)
	case "restore":
		out = s.restoreCommand(ctx, arg)
	case "rewind":
		out = s.rewindCommand(ctx, arg)
	case "status":
		out = s.statusText()
	case "skills":
		out = s.skillsListing()
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

// titleFrom takes the first line of the prompt's text as plain words,
// shortened; a prompt of images alone is named for them.
func titleFrom(parts []model.Part) string {
	for _, p := range parts {
		line, _, _ := strings.Cut(strings.TrimSpace(p.Text), "\n")
		line = plainMarkdown(strings.Join(strings.Fields(line), " "))
		if line == "" {
			continue
		}
		if utf8.RuneCountInString(line) > maxTitleRunes {
			r := []rune(line)
			line = strings.TrimSpace(string(r[:maxTitleRunes-1])) + "…"
		}
		return line
	}
	for _, p := range parts {
		if p.InlineData != nil && strings.HasPrefix(p.InlineData.MIMEType, "image/") {
			return "Image"
		}
	}
	return ""
}

// plainMarkdown drops the markdown marks a title line may carry: a
// heading, quote or list marker, emphasis and code marks, and link
// targets ("[text](url)" becomes "text").
func plainMarkdown(line string) string {
	line = strings.TrimLeft(line, "#> ")
	for _, marker := range []string{"- ", "* ", "+ "} {
		line = strings.TrimPrefix(line, marker)
	}
	var b strings.Builder
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case c == '`' || c == '*' || (c == '_' && (i+1 < len(line) && line[i+1] == '_' || i > 0 && line[i-1] == '_')):
		case c == ']' && i+1 < len(line) && line[i+1] == '(':
			if end := strings.IndexByte(line[i:], ')'); end > 0 {
				i += end
			}
		case c == '[' && strings.Contains(line[i:], "]("):
		default:
			b.WriteByte(c)
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}
