package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"companion/config"
)

const mcpUsage = `Usage:
  companion mcp add [--project] [--transport stdio|sse|http] [--env K=V]... [--header K:V]... [--trust] NAME COMMAND-OR-URL [ARGS...]
  companion mcp remove [--project] NAME
  companion mcp list [--project]

Servers go to the user settings file, or with --project to .companion/settings.json in the current directory.
`

// runMCP edits and lists MCP servers in settings.
func runMCP(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, mcpUsage)
		return 2
	}
	fs := flag.NewFlagSet("companion mcp "+args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	project := fs.Bool("project", false, "edit the project's settings instead of the user's")
	transport := fs.String("transport", "", "stdio (a command), sse or http (a URL); default: stdio, or http for a URL")
	trust := fs.Bool("trust", false, "run the server's tools without asking")
	var env, headers multiFlag
	fs.Var(&env, "env", "an environment variable K=V for a stdio server (repeatable)")
	fs.Var(&headers, "header", "an HTTP header K:V for a URL server (repeatable)")
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	cfg, err := config.Load(getenv)
	if err != nil {
		fmt.Fprintf(stderr, "companion: %v\n", err)
		return 1
	}
	path := cfg.SettingsPath
	if *project {
		wd, _ := os.Getwd()
		path = config.ProjectSettingsPath(wd)
	}
	rest := fs.Args()
	switch args[0] {
	case "add":
		if len(rest) < 2 {
			fmt.Fprint(stderr, mcpUsage)
			return 2
		}
		s := mcpServer(rest[1], rest[2:], *transport, *trust, env, headers)
		err = config.AddMCPServer(path, rest[0], s)
	case "remove":
		if len(rest) != 1 {
			fmt.Fprint(stderr, mcpUsage)
			return 2
		}
		err = config.RemoveMCPServer(path, rest[0])
	case "list":
		err = listMCP(stdout, path)
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
func mcpServer(target string, args []string, transport string, trust bool, env, headers multiFlag) config.MCPServer {
	s := config.MCPServer{Trust: trust}
	isURL := strings.HasPrefix(target, "http://") || strings.HasPrefix(target, "https://")
	switch {
	case transport == "sse":
		s.URL = target
	case transport == "http" || (transport == "" && isURL):
		s.HTTPURL = target
	default:
		s.Command, s.Args = target, args
	}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		if s.Env == nil {
			s.Env = map[string]string{}
		}
		s.Env[k] = v
	}
	for _, kv := range headers {
		k, v, _ := strings.Cut(kv, ":")
		if s.Headers == nil {
			s.Headers = map[string]string{}
		}
		s.Headers[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	return s
}

func listMCP(w io.Writer, path string) error {
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
			fmt.Fprintf(w, "%s\thttp\t%s\n", n, s.HTTPURL)
		default:
			fmt.Fprintf(w, "%s\tsse\t%s\n", n, s.URL)
		}
	}
	return nil
}

// multiFlag collects a repeatable string flag.
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }
