package slash

import (
	"context"
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Env is what Expand needs from the agent. Both methods run with the
// session's rules: ReadFile confines paths to the workspace and sees the
// editor's unsaved buffers; RunShell goes through the shell policy, which
// may ask the user or refuse.
type Env interface {
	// ReadFile returns the text of path, relative to the project root.
	ReadFile(ctx context.Context, path string) (string, error)
	// RunShell runs command and returns its output (with a note of a
	// non-zero exit status if the agent wants the model to see one). It
	// returns an error only when the command was not run: denied, refused
	// or not startable.
	RunShell(ctx context.Context, command string) (string, error)
}

// Expand renders cmd's prompt with args (the text typed after the
// command). {{args}} becomes args, trimmed; inside !{...} it becomes args
// quoted as one shell word, so arguments cannot inject commands. A prompt
// without {{args}} gets non-empty args appended after a blank line. @{path}
// becomes the file's content, !{command} the command's output with trailing
// newlines removed; a file that cannot be read or a command that was not
// run leaves a bracketed note in its place. The template is scanned once:
// nothing inserted (arguments, file content, output) is expanded again.
//
// Expand returns an error for a template with an unclosed block, for
// arguments that cannot be shell-quoted, and when ctx ends.
func Expand(ctx context.Context, cmd Command, args string, env Env) (string, error) {
	pieces, err := parseTemplate(cmd.Prompt)
	if err != nil {
		return "", fmt.Errorf("/%s: %w", cmd.Name, err)
	}
	args = strings.TrimSpace(args)
	var b strings.Builder
	for _, p := range pieces {
		var s string
		switch p.kind {
		case literal:
			s = p.text
		case argsRef:
			s = args
		case fileRef:
			s, err = readFile(ctx, env, strings.ReplaceAll(p.text, argsPlaceholder, args))
		case shellRef:
			s, err = runShell(ctx, env, p.text, args)
		}
		if err != nil {
			return "", fmt.Errorf("/%s: %w", cmd.Name, err)
		}
		b.WriteString(s)
	}
	out := b.String()
	if args != "" && !strings.Contains(cmd.Prompt, argsPlaceholder) {
		out = strings.TrimRight(out, "\n") + "\n\n" + args
	}
	return out, nil
}

// readFile renders an @{path} block.
func readFile(ctx context.Context, env Env, path string) (string, error) {
	path = strings.TrimSpace(path)
	if path == "" {
		return "[@{} names no file]", nil
	}
	if env == nil {
		return fmt.Sprintf("[@{%s} was not read: no file access]", path), nil
	}
	text, err := env.ReadFile(ctx, path)
	if err != nil {
		if ctx.Err() != nil {
			return "", context.Cause(ctx)
		}
		return fmt.Sprintf("[@{%s} was not read: %v]", path, err), nil
	}
	return text, nil
}

// runShell renders a !{command} block, quoting args where {{args}}
// appears.
func runShell(ctx context.Context, env Env, command, args string) (string, error) {
	if strings.Contains(command, argsPlaceholder) {
		quoted, err := syntax.Quote(args, syntax.LangBash)
		if err != nil {
			return "", fmt.Errorf("%w: %w", ErrUnquotable, err)
		}
		command = strings.ReplaceAll(command, argsPlaceholder, quoted)
	}
	command = strings.TrimSpace(command)
	if command == "" {
		return "[!{} names no command]", nil
	}
	if env == nil {
		return fmt.Sprintf("[!{%s} was not run: no shell access]", command), nil
	}
	out, err := env.RunShell(ctx, command)
	if err != nil {
		if ctx.Err() != nil {
			return "", context.Cause(ctx)
		}
		return fmt.Sprintf("[!{%s} was not run: %v]", command, err), nil
	}
	return strings.TrimRight(out, "\n"), nil
}
