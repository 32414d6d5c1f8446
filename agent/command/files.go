package command

import (
	"context"
	"errors"
	"slices"
	"strings"

	"companion/agent"
	"companion/agent/model"
	"companion/agent/slash"
	"companion/tools"
)

// fileCommand expands a slash command defined in a file (or by an MCP
// prompt) into the prompt text it stands for; ok is false when text names
// no such command.
func (c *commands) fileCommand(ctx context.Context, text string) (string, bool, error) {
	name, args, _ := strings.Cut(strings.TrimPrefix(text, "/"), " ")
	if slices.ContainsFunc(c.builtinCommands(), func(b agent.Command) bool { return b.Name == name }) {
		return "", false, nil // built-in commands cannot be shadowed
	}
	i := slices.IndexFunc(c.cfg.slash, func(f slash.Command) bool { return f.Name == name })
	if i < 0 {
		if prompt, ok, err := c.skillCommand(name, args); ok {
			return prompt, true, err
		}
		return c.mcpPrompt(ctx, name, args)
	}
	prompt, err := slash.Expand(ctx, c.cfg.slash[i], strings.TrimSpace(args), &slashEnv{c: c})
	return prompt, true, err
}

// Sources of the data frames around what file commands insert (see
// Session.FrameData).
const (
	// sourceFile is a file a file command inserts with @{path}.
	sourceFile = "file_command_file"
	// sourceShell is what a file command's !{command} printed.
	sourceShell = "file_command_shell"
)

// slashEnv gives file commands the session's files and shell, under the
// same confinement and policy as the model's tools.
type slashEnv struct{ c *commands }

// ReadFile reads a file for @{path}, framed as data (see untrusted.go).
func (e *slashEnv) ReadFile(ctx context.Context, path string) (string, error) {
	abs, err := e.c.cfg.roots.Resolve(path)
	if err != nil {
		return "", err
	}
	files := e.c.cfg.files
	if files == nil {
		files = tools.LocalFiles{}
	}
	text, err := files.ReadTextFile(ctx, abs)
	if err != nil {
		return "", err
	}
	return e.c.s.FrameData(sourceFile, text), nil
}

// RunShell runs !{command} as a run_shell_command call: shown to the user,
// checked by the policy (and asked about when it must be), then run. Its
// output comes back framed as data (see untrusted.go).
func (e *slashEnv) RunShell(ctx context.Context, command string) (string, error) {
	if _, ok := e.c.cfg.tools.Get("run_shell_command"); !ok {
		return "", errors.New("no shell tool")
	}
	res := e.c.s.RunTool(ctx, &model.FunctionCall{Name: "run_shell_command",
		Args: map[string]any{"command": command, "description": "run for a slash command"}})
	if res == nil {
		return "", ctx.Err()
	}
	if res.IsError {
		return "", errors.New(firstLine(res.Text))
	}
	return e.c.s.FrameData(sourceShell, shellOutput(res)), nil
}

// shellOutput is the command's output from the shell tool's answer: the
// text before its "---" status trailer.
func shellOutput(res *tools.Result) string {
	out, _, ok := strings.Cut(res.Text, "\n---\n")
	if !ok || out == "(no output)" {
		return strings.TrimSuffix(res.Text, "\n")
	}
	return out
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}

// fileCommandList is the file commands as Commands, for the editor.
func (c *commands) fileCommandList() []agent.Command {
	var out []agent.Command
	for _, f := range c.cfg.slash {
		out = append(out, agent.Command{Name: f.Name, Description: f.Description, Hint: f.Hint})
	}
	return out
}
