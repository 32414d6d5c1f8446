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
                    [--timeout MS] [--include-tools a,b] [--exclude-tools a,b] NAME COMMAND-OR-URL [--] [ARGS...]
  companion mcp remove [-s user|project] NAME
  companion mcp list [-s user|project]   (both scopes when none is given; remote servers' auth state too)
  companion mcp auth NAME                (authorise companion with a remote server that uses OAuth)
  companion mcp logout NAME              (forget that authorization)

Servers go to .companion/settings.json in the current directory (-s project, the default, as in
Gemini CLI) or to your user settings file (-s user). Long forms: --scope, --transport, --env,
--header; --project and --user are switches for the scope. For a command, everything after it
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
	if a.scope == "project" {
		wd, _ := os.Getwd()
		path = config.ProjectSettingsPath(wd)
		// the user's own edit: accepted if the file was (see KeepAccepted)
		edit = func(f func() error) error { return cfg.KeepAccepted(wd, f) }
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
		err = edit(func() error { return config.RemoveMCPServer(path, rest[0]) })
	case "list":
		store := oauth.NewStore(oauth.StorePath(cfg.StateDir))
		if a.scopeSet {
			err = listMCP(stdout, path, store)
			break
		}
		for _, p := range []string{cfg.SettingsPath, path} { // both scopes, the user's first
			if err = listMCP(stdout, p, store); err != nil {
				break
			}
		}
	default:
		fmt.Fprint(stderr, mcpUsage)
		return 2
	}
	if err != nil {
		fmt.Fprintf(stderr, "companion: %v\n", err)
		return 1
	}
	if args[0] != "list" {
		fmt.Fprintf(stdout, "updated %s\n", path)
	}
	return 0
}

// mcpServer builds a settings entry from the command line.
func mcpServer(target string, args []string, a mcpArgs) config.MCPServer {
	s := config.MCPServer{Trust: a.trust, Timeout: a.timeout, IncludeTools: a.include, ExcludeTools: a.exclude}
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

func listMCP(w io.Writer, path string, store *oauth.Store) error {
	servers, names, err := config.ListMCPServers(path)
	if err != nil {
		return err
	}
	if len(names) == 0 {
		fmt.Fprintf(w, "no MCP servers in %s\n", path)
		return nil
	}
	for _, n := range names {
		s := servers[n]
		switch {
		case s.Command != "":
			fmt.Fprintf(w, "%s\tstdio\t%s %s\n", n, s.Command, strings.Join(s.Args, " "))
		case s.HTTPURL != "":
			fmt.Fprintf(w, "%s\thttp\t%s%s\n", n, s.HTTPURL, authColumn(store, n, s))
		default:
			fmt.Fprintf(w, "%s\tsse\t%s%s\n", n, s.URL, authColumn(store, n, s))
		}
	}
	return nil
}

// multiFlag collects a repeatable string flag.
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }
