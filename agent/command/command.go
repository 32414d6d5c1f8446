package command

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"companion/agent"
	"companion/agent/model"
	"companion/agent/skills"
	"companion/agent/slash"
	"companion/tools"
	"companion/tools/sandbox"
)

// commands is a session's command layer: the built-in slash commands,
// declared once in builtinTable, and the commands defined in files, by
// skills and by MCP servers. It holds the session and drives it through
// its exported methods, as a front end would; what else it needs it is
// given when the session is built (config) or keeps itself (undone).
type commands struct {
	s   *agent.Session
	cfg config
	// mu guards undone, what the last /undo did (zero after a /restore
	// or /rewind), so a second /undo steps further back.
	mu     sync.Mutex
	undone undoMark
}

// config is what the command layer uses of the session's options: set by
// New and never changed after.
type config struct {
	// roots, files and tools serve file commands' @{path} and !{cmd}.
	roots *tools.Roots
	files tools.Files
	tools *tools.Registry
	// slash are the commands defined in files.
	slash []slash.Command
	// skills, mcp, checkpoints and forks are those of the options (may be nil).
	skills      *skills.Catalog
	mcp         agent.MCPServers
	checkpoints agent.Checkpointer
	forks       agent.Forker
	// memoryDirs are the user's config folders; /memory add writes to the first.
	memoryDirs []string
	// acceptSettings is Options.AcceptSettings.
	acceptSettings func() (string, error)
	// prober, sandbox and network are what /status says of the sandbox,
	// languageServers what it lists of the language servers (nil: no line).
	prober          *sandbox.Prober
	sandbox         string
	network         bool
	languageServers func() []string
}

// New builds the command layer of session s from the options it was
// built with; it is what Options.Commands is set to.
func New(s *agent.Session, opts agent.Options) agent.CommandLayer {
	return &commands{s: s, cfg: config{
		roots: opts.Roots, files: opts.Files, tools: opts.Tools, slash: opts.SlashCommands,
		skills: opts.Skills, mcp: opts.MCP, checkpoints: opts.Checkpoints, forks: opts.Forks,
		memoryDirs: opts.Memory.UserDirs, acceptSettings: opts.AcceptSettings,
		prober: opts.SandboxProber, sandbox: opts.Prompt.Sandbox, network: opts.Prompt.SandboxNetwork,
		languageServers: opts.LanguageServers,
	}}
}

// List is the commands the session offers: the built-in ones, then those
// defined in files, by skills and by MCP servers.
func (c *commands) List() []agent.Command {
	return slices.Concat(c.builtinCommands(), c.fileCommandList(), c.skillCommandList(), c.mcpCommands())
}

// Run takes a prompt that starts with a slash: /init, a file command, a
// skill or an MCP prompt become the prompt they stand for; a built-in
// command is answered here, and so is a command that cannot run (why not)
// or that does not exist.
func (c *commands) Run(ctx context.Context, text string) ([]model.Part, string) {
	if text == "/init" {
		return c.initCommand()
	}
	prompt, ok, err := c.fileCommand(ctx, text)
	switch {
	case !ok:
		return nil, c.run(ctx, text)
	case err != nil:
		return nil, fmt.Sprintf("Cannot run %s: %v", text, err)
	}
	return []model.Part{{Text: prompt}}, ""
}

// builtinCmd is one built-in slash command: what the editor's command list
// and /help show, and what running it answers.
type builtinCmd struct {
	agent.Command
	// offered reports whether the session offers the command; nil means
	// always.
	offered func(c *commands) bool
	// run answers the command; arg is what follows its name, trimmed.
	run func(c *commands, ctx context.Context, arg string) string
}

// builtinTable declares every built-in command once: the command list
// and the dispatch of run both read it.
func builtinTable() []builtinCmd {
	return []builtinCmd{
		{agent.Command{Name: "help", Description: "Show the commands and tools companion offers"}, nil,
			func(c *commands, _ context.Context, _ string) string { return c.helpText() }},
		{agent.Command{Name: "tools", Description: "List the tools the model may call"}, nil,
			func(c *commands, _ context.Context, _ string) string { return c.toolsText() }},
		{agent.Command{Name: "clear", Description: "Forget this conversation and start afresh"}, nil,
			func(c *commands, _ context.Context, _ string) string {
				c.s.ClearHistory()
				return "Conversation cleared."
			}},
		{agent.Command{Name: "compress", Description: "Summarise the conversation so far to free context"}, nil,
			func(c *commands, ctx context.Context, _ string) string { return c.s.Compress(ctx) }},
		{agent.Command{Name: "model", Description: "Show or switch the model", Hint: "model name"}, nil,
			func(c *commands, _ context.Context, arg string) string { return c.modelCommand(arg) }},
		{agent.Command{Name: "mode", Description: "Show or switch the approval mode", Hint: "default | auto_edit | yolo | plan"}, nil,
			(*commands).modeCommand},
		// /init is a prompt to the model; Run turns it into one.
		{agent.Command{Name: "init", Description: "Look at the project and write a starter AGENTS.md"}, nil, nil},
		{agent.Command{Name: "stats", Description: "Show requests, tokens, time and tool calls, per model and per tool"}, nil,
			func(c *commands, _ context.Context, _ string) string { return agent.StatsText(c.s.Stats()) }},
		{agent.Command{Name: "mcp", Description: "Show the MCP servers, their state and tools; auth NAME authorises one", Hint: "auth NAME"}, nil,
			(*commands).mcpCommand},
		{agent.Command{Name: "memory", Description: "Show, add to or reload the instruction files", Hint: "show | add <fact> | refresh"}, nil,
			(*commands).memoryCommand},
		{agent.Command{Name: "undo", Description: "Undo the last file change (again: the change before it)"}, nil,
			func(c *commands, ctx context.Context, _ string) string { return c.undo(ctx) }},
		{agent.Command{Name: "restore", Description: "List checkpoints, or restore one", Hint: "checkpoint id"}, nil,
			(*commands).restoreCommand},
		{agent.Command{Name: "rewind", Description: "List the prompts, or go back to before one (files too)", Hint: "prompt number"}, nil,
			(*commands).rewindCommand},
		{agent.Command{Name: "status", Description: "Show the model, approval mode, command sandbox and folders"}, nil,
			func(c *commands, _ context.Context, _ string) string { return c.statusText() }},
		{agent.Command{Name: "skills", Description: "List the skills the model may activate"}, nil,
			func(c *commands, _ context.Context, _ string) string { return c.skillsListing() }},
		{agent.Command{Name: "accept-settings", Description: "Accept this project's new or changed settings for new sessions"},
			func(c *commands) bool { return c.cfg.acceptSettings != nil },
			func(c *commands, _ context.Context, _ string) string { return c.acceptSettings() }},
	}
}

// builtinCommands lists the built-in commands this session offers.
func (c *commands) builtinCommands() []agent.Command {
	var cmds []agent.Command
	for _, b := range builtinTable() {
		if b.offered == nil || b.offered(c) {
			cmds = append(cmds, b.Command)
		}
	}
	return cmds
}

// run answers a built-in slash command without calling the model; the
// turn engine tells the user. Unknown commands are reported, not sent to
// the model.
func (c *commands) run(ctx context.Context, text string) string {
	name, arg, _ := strings.Cut(strings.TrimPrefix(text, "/"), " ")
	arg = strings.TrimSpace(arg)
	for _, b := range builtinTable() {
		if b.Name == name && b.run != nil {
			return b.run(c, ctx, arg)
		}
	}
	return fmt.Sprintf("Unknown command /%s. Type /help for the list.", name)
}

// helpText is /help: every command, then every tool.
func (c *commands) helpText() string {
	var b strings.Builder
	b.WriteString("Commands:\n")
	for _, cmd := range c.s.Commands() {
		fmt.Fprintf(&b, "- `/%s`", cmd.Name)
		if cmd.Hint != "" {
			fmt.Fprintf(&b, " <%s>", cmd.Hint)
		}
		fmt.Fprintf(&b, ": %s\n", cmd.Description)
	}
	b.WriteString("\n")
	b.WriteString(c.toolsText())
	return b.String()
}

// toolsText is /tools: each tool the model may call now, with the first
// line of its description.
func (c *commands) toolsText() string {
	var b strings.Builder
	b.WriteString("Tools:\n")
	for _, t := range c.s.Tools() {
		desc, _, _ := strings.Cut(t.Description(), "\n")
		fmt.Fprintf(&b, "- `%s`: %s\n", t.Name(), desc)
	}
	return b.String()
}

// modelCommand is /model: the model in use, or a switch to another.
func (c *commands) modelCommand(arg string) string {
	if arg == "" {
		return fmt.Sprintf("Model: %s. Available: %s.", c.s.ModelName(), strings.Join(c.s.Models(), ", "))
	}
	if err := c.s.SetModel(arg); err != nil {
		return fmt.Sprintf("Unknown model %q. Available: %s.", arg, strings.Join(c.s.Models(), ", "))
	}
	return fmt.Sprintf("Model switched to %s.", arg)
}

// modeCommand is /mode: the approval mode, or a switch to another that
// the front end is told of.
func (c *commands) modeCommand(ctx context.Context, arg string) string {
	if arg == "" {
		return fmt.Sprintf("Mode: %s. Available: default, auto_edit, yolo, plan.", c.s.Mode())
	}
	if !slices.ContainsFunc(agent.Modes(), func(m agent.Mode) bool { return m.ID == arg }) {
		return fmt.Sprintf("Unknown mode %q. Available: default, auto_edit, yolo, plan.", arg)
	}
	if err := c.s.AnnounceMode(ctx, arg); err != nil {
		return "Mode not switched: " + err.Error() + "."
	}
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
func (c *commands) initCommand() ([]model.Part, string) {
	path := filepath.Join(c.s.Root(), "AGENTS.md")
	if _, err := os.Stat(path); err == nil {
		return nil, "AGENTS.md already exists at " + path + "; edit it, or delete it and run /init again."
	}
	return []model.Part{{Text: initPrompt}}, ""
}

// acceptSettings runs /accept-settings.
func (c *commands) acceptSettings() string {
	if c.cfg.acceptSettings == nil {
		return "No project settings are waiting to be accepted."
	}
	out, err := c.cfg.acceptSettings()
	if err != nil {
		return "Cannot accept the project settings: " + err.Error()
	}
	return out
}
