package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"companion/config"
	"companion/mcpclient/oauth"
)

const mcpUsage = `Usage:
  companion mcp add [-s user|project] [-t stdio|http|sse] [-e KEY=V]... [-H "Name: value"]... [--trust]
                    [--timeout MS] [--include-tools a,b] [--exclude-tools a,b] [--description TEXT]
                    NAME COMMAND-OR-URL [--] [ARGS...]
  companion mcp remove [-s user|project] [--file PATH] NAME   (from the one file that names it)
  companion mcp list [-s user|project] [--file PATH]   (every file sessions read servers from, each
                                         server with its file, auth state, and why it is not used)
  companion mcp auth NAME                (authorise companion with a remote server that uses OAuth)
  companion mcp logout NAME              (forget that authorization)

Servers go to .companion/settings.json in the current directory (-s project, the default, as in
Gemini CLI) or to your user settings file (-s user). list and remove also see the servers in
~/.gemini/settings.json, .gemini/settings.json and .mcp.json, which sessions start too; removing
one of those edits that file. Long forms: --scope, --transport, --env,
--header (--type for --transport); --project and --user are switches for the scope. For a command, everything after it
(or after --) is the server's own arguments; flags for companion come before it.
`

// runMCP edits and lists MCP servers in settings.
func runMCP(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, mcpUsage)
		return 2
	}
	a, err := parseMCPArgs(args[1:])
	if err != nil {
		fmt.Fprintf(stderr, "companion mcp %s: %v\n%s", args[0], err, mcpUsage)
		return 2
	}
	if a.help {
		fmt.Fprint(stderr, mcpUsage)
		return 0
	}
	cfg, err := config.Load(getenv)
	if err != nil {
		fmt.Fprintf(stderr, "companion: %v\n", err)
		return 1
	}
	if args[0] == "auth" || args[0] == "logout" {
		return runMCPAuth(args[0], a.pos, cfg, stdout, stderr, func(ctx context.Context, url string) error {
			return oauth.OpenBrowser(ctx, url, getenv)
		})
	}
	path, edit := cfg.SettingsPath, func(f func() error) error { return f() }
	if a.scope == config.ScopeProject {
		wd, _ := os.Getwd()
		path = config.ProjectSettingsPath(wd)
		edit = func(f func() error) error { return keepAccepted(&cfg, f) }
	}
	rest := a.pos
	switch args[0] {
	case "add":
		if len(rest) < 2 {
			fmt.Fprint(stderr, mcpUsage)
			return 2
		}
		err = edit(func() error { return config.AddMCPServer(path, rest[0], mcpServer(rest[1], rest[2:], a)) })
	case "remove":
		if len(rest) != 1 {
			fmt.Fprint(stderr, mcpUsage)
			return 2
		}
		return removeMCP(stdout, stderr, cfg, a, rest[0], getenv)
	case "list":
		return listAllMCP(stdout, stderr, cfg, a, getenv)
	default:
		fmt.Fprint(stderr, mcpUsage)
		return 2
	}
	if err != nil {
		fmt.Fprintf(stderr, "companion: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "updated %s\n", path)
	return 0
}

// mcpServer builds a settings entry from the command line.
func mcpServer(target string, args []string, a mcpArgs) config.MCPServer {
	s := config.MCPServer{Description: a.description, Trust: a.trust, Timeout: a.timeout, IncludeTools: a.include, ExcludeTools: a.exclude}
	switch {
	case a.transport == "sse":
		s.URL = target
	case a.transport == "http" || (a.transport == "" && isURL(target)):
		s.HTTPURL = target
	default:
		s.Command, s.Args = target, args
	}
	for _, kv := range a.env {
		k, v, _ := strings.Cut(kv, "=")
		if s.Env == nil {
			s.Env = map[string]string{}
		}
		s.Env[k] = v
	}
	for _, kv := range a.headers {
		k, v, _ := strings.Cut(kv, ":")
		if s.Headers == nil {
			s.Headers = map[string]string{}
		}
		s.Headers[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	return s
}

// multiFlag collects a repeatable string flag.
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }
