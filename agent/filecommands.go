package agent

import (
	"context"
	"errors"
	"slices"
	"strings"

	"companion/agent/model"
	"companion/agent/slash"
	"companion/tools"
)

// fileCommand expands a slash command defined in a file (or by an MCP
// prompt) into the prompt text it stands for; ok is false when text names
// no such command.
func (s commands) fileCommand(ctx context.Context, text string) (string, bool, error) {
	name, args, _ := strings.Cut(strings.TrimPrefix(text, "/"), " ")
	if slices.ContainsFunc(s.builtinCommands(), func(c Command) bool { return c.Name == name }) {
		return "", false, nil // built-in commands cannot be shadowed
	}
	i := slices.IndexFunc(s.opts.SlashCommands, func(c slash.Command) bool { return c.Name == name })
	if i < 0 {
		if prompt, ok, err := s.skillCommand(name, args); ok {
			return prompt, true, err
		}
		return s.mcpPrompt(ctx, name, args)
	}
	prompt, err := slash.Expand(ctx, s.opts.SlashCommands[i], strings.TrimSpace(args), &slashEnv{s: s.Session})
	return prompt, true, err
}

// slashEnv gives file commands the session's files and shell, under the
// same confinement and policy as the model's tools.
type slashEnv struct{ s *Session }

// ReadFile reads a file for @{path}, framed as data (see untrusted.go).
func (e *slashEnv) ReadFile(ctx context.Context, path string) (string, error) {
	abs, err := e.s.opts.Roots.Resolve(path)
	if err != nil {
		return "", err
	}
	files := e.s.env.Files
	if files == nil {
		files = tools.LocalFiles{}
	}
	text, err := files.ReadTextFile(ctx, abs)
	if err != nil {
		return "", err
	}
	return frameData(e.s.dataNonce, sourceFileCommandFile, text), nil
}

// RunShell runs !{command} as a run_shell_command call: shown to the user,
// checked by the policy (and asked about when it must be), then run. Its
// output comes back framed as data (see untrusted.go).
func (e *slashEnv) RunShell(ctx context.Context, command string) (string, error) {
	if _, ok := e.s.opts.Tools.Get("run_shell_command"); !ok {
		return "", errors.New("no shell tool")
	}
	fc := &model.FunctionCall{Name: "run_shell_command", Args: map[string]any{"command": command, "description": "run for a slash command"}}
	p := e.s.eng.prepare(fc)
	e.s.eng.runOne(ctx, p)
	if p.res == nil {
		return "", ctx.Err()
	}
	if p.res.IsError {
		return "", errors.New(firstLine(p.res.Text))
	}
	return frameData(e.s.dataNonce, sourceFileCommandShell, shellOutput(p.res)), nil
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
func (s commands) fileCommandList() []Command {
	var out []Command
	for _, c := range s.opts.SlashCommands {
		out = append(out, Command{Name: c.Name, Description: c.Description, Hint: c.Hint})
	}
	return out
}
