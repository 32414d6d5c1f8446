package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// mcpArgs is a `companion mcp add|remove|list` command line. The flags
// are those Gemini CLI and Claude Code users type, short or long:
//
//	-s, --scope user|project   where the server goes (default project, as in Gemini CLI)
//	--project, --user          the same, as switches
//	-t, --transport, --type stdio|http|sse
//	--description TEXT         the server's description
//	--file PATH                (list, remove) only this settings file
//	-e, --env KEY=VALUE        repeatable
//	-H, --header "Name: value" repeatable
//	--trust, --timeout MS, --include-tools a,b, --exclude-tools a,b
//
// Flags may come before or between the positional arguments (NAME, then
// the command or URL). For a command, everything after it is the
// server's own arguments, flags included; "--" also ends companion's
// flags. For a URL, flags may follow it.
type mcpArgs struct {
	scope, transport string
	// scopeSet is set when the command line chose the scope.
	scopeSet         bool
	trust            bool
	timeout          float64
	env, headers     []string
	include, exclude []string
	// pos are the positional arguments: NAME, COMMAND-OR-URL, ARGS...
	pos []string
	// help is set by -h or --help.
	help bool
	// description is the server's description (Gemini CLI's field).
	description string
	// file picks the one settings file `mcp list` and `remove` look in.
	file string
}

// errMCPUsage marks a command line that does not parse.
var errMCPUsage = errors.New("usage")

// parseMCPArgs reads the arguments after `companion mcp SUB`.
func parseMCPArgs(args []string) (mcpArgs, error) {
	a := mcpArgs{scope: "project"}
	for i := 0; i < len(args); i++ {
		tok := args[i]
		if tok == "--" {
			a.pos = append(a.pos, args[i+1:]...)
			break
		}
		if a.serverArgsStarted() || !strings.HasPrefix(tok, "-") || tok == "-" {
			a.pos = append(a.pos, tok)
			continue
		}
		name, val, inline := strings.Cut(strings.TrimLeft(tok, "-"), "=")
		value := func() (string, error) {
			if inline {
				return val, nil
			}
			if i+1 >= len(args) {
				return "", fmt.Errorf("%w: %s needs a value", errMCPUsage, tok)
			}
			i++
			return args[i], nil
		}
		if err := a.set(name, value); err != nil {
			return a, err
		}
	}
	return a, nil
}

// serverArgsStarted reports whether a command has been read, after which
// every argument is the server's.
func (a *mcpArgs) serverArgsStarted() bool {
	if len(a.pos) < 2 || a.transport == "http" || a.transport == "sse" {
		return false
	}
	return !isURL(a.pos[1])
}

// set applies flag name; value reads its value.
func (a *mcpArgs) set(name string, value func() (string, error)) error {
	var v string
	var err error
	switch name {
	case "project", "user", "trust", "h", "help":
	default:
		if v, err = value(); err != nil {
			return err
		}
	}
	switch name {
	case "project", "user":
		a.scope, a.scopeSet = name, true
	case "trust":
		a.trust = true
	case "h", "help":
		a.help = true
	case "s", "scope":
		if v != "user" && v != "project" {
			return fmt.Errorf("%w: scope %q: want user or project", errMCPUsage, v)
		}
		a.scope, a.scopeSet = v, true
	case "t", "transport", "type":
		if v != "stdio" && v != "http" && v != "sse" {
			return fmt.Errorf("%w: transport %q: want stdio, http or sse", errMCPUsage, v)
		}
		a.transport = v
	case "e", "env":
		if k, _, ok := strings.Cut(v, "="); !ok || k == "" {
			return fmt.Errorf("%w: --env %q: want KEY=VALUE", errMCPUsage, v)
		}
		a.env = append(a.env, v)
	case "H", "header":
		if k, _, ok := strings.Cut(v, ":"); !ok || strings.TrimSpace(k) == "" {
			return fmt.Errorf("%w: --header %q: want \"Name: value\"", errMCPUsage, v)
		}
		a.headers = append(a.headers, v)
	case "description":
		a.description = v
	case "file":
		a.file = v
	case "timeout":
		if a.timeout, err = strconv.ParseFloat(v, 64); err != nil || a.timeout < 0 {
			return fmt.Errorf("%w: --timeout %q: want milliseconds", errMCPUsage, v)
		}
	case "include-tools", "exclude-tools":
		list := &a.include
		if name == "exclude-tools" {
			list = &a.exclude
		}
		for _, t := range strings.Split(v, ",") {
			if t = strings.TrimSpace(t); t != "" {
				*list = append(*list, t)
			}
		}
	default:
		return fmt.Errorf("%w: unknown flag -%s", errMCPUsage, name)
	}
	return nil
}

// isURL reports whether a server target is a URL.
func isURL(target string) bool {
	return strings.HasPrefix(target, "http://") || strings.HasPrefix(target, "https://")
}
