package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"companion/config"
	"companion/mcpclient/oauth"
)

// mcpSources are the settings files `companion mcp list` and `remove`
// look in: every file sessions read MCP servers from (config.MCPSources),
// narrowed to the scope the command line chose, or to the one file it
// named with --file.
func mcpSources(cfg config.Config, a mcpArgs, getenv func(string) string) ([]config.MCPSource, error) {
	wd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	var out []config.MCPSource
	for _, src := range config.MCPSources(cfg.SettingsPath, getenv("HOME"), wd) {
		if a.scopeSet && src.Scope != a.scope {
			continue
		}
		if a.file != "" && !sameFile(a.file, src.Path) {
			continue
		}
		out = append(out, src)
	}
	if a.file != "" && len(out) == 0 {
		return nil, fmt.Errorf("%s is not a file MCP servers are read from (see companion mcp list)", a.file)
	}
	return out, nil
}

// mcpEntries are the sources the command line allows and the servers
// they name.
func mcpEntries(cfg config.Config, a mcpArgs, getenv func(string) string) ([]config.MCPSource, []config.MCPEntry, error) {
	sources, err := mcpSources(cfg, a, getenv)
	if err != nil {
		return nil, nil, err
	}
	entries, err := config.ListAllMCPServers(sources)
	return sources, entries, err
}

// sameFile reports whether the --file value names path.
func sameFile(file, path string) bool {
	if file == path {
		return true
	}
	a, errA := os.Stat(file)
	b, errB := os.Stat(path)
	return errA == nil && errB == nil && os.SameFile(a, b)
}

// listAllMCP prints every server of every file, grouped by file: name,
// transport, command or URL, a remote server's auth state, and why a
// session does not start it when it does not.
func listAllMCP(stdout, stderr io.Writer, cfg config.Config, a mcpArgs, getenv func(string) string) int {
	sources, entries, err := mcpEntries(cfg, a, getenv)
	if err != nil {
		fmt.Fprintf(stderr, "companion mcp list: %v\n", err)
		return 1
	}
	if len(entries) == 0 {
		fmt.Fprintf(stdout, "no MCP servers in %s\n", sourceNames(sources))
		return 0
	}
	store := oauth.NewStore(oauth.StorePath(cfg.StateDir))
	last := ""
	for _, e := range entries {
		if e.Source.Path != last {
			last = e.Source.Path
			fmt.Fprintf(stdout, "%s (%s, %s's):\n", e.Source.Path, e.Source.Scope, e.Source.Owner)
		}
		line := fmt.Sprintf("  %s\t%s\t%s", e.Name, e.Server.Transport(), e.Server.Target())
		if e.Server.Command == "" {
			line += authColumn(store, e.Name, e.Server)
		}
		if e.Unused != "" {
			line += "\tnot used: " + e.Unused
		}
		fmt.Fprintln(stdout, line)
	}
	if wd, err := os.Getwd(); err == nil && hasProject(entries) && !cfg.FolderTrust.Trusts(wd) {
		fmt.Fprintln(stdout, "This folder is not trusted: sessions do not start its project servers (companion trust).")
	}
	return 0
}

// hasProject reports whether a project file names a server.
func hasProject(entries []config.MCPEntry) bool {
	for _, e := range entries {
		if e.Source.Scope == config.ScopeProject {
			return true
		}
	}
	return false
}

// sourceNames joins the sources' paths.
func sourceNames(sources []config.MCPSource) string {
	names := make([]string, len(sources))
	for i, s := range sources {
		names[i] = s.Path
	}
	return strings.Join(names, ", ")
}

// removeMCP removes server name from the one file that names it, among
// those the command line allows. A name no file has, or one several
// files have (unless --file or the scope picks one), is refused with the
// files it looked in or found it in.
func removeMCP(stdout, stderr io.Writer, cfg config.Config, a mcpArgs, name string, getenv func(string) string) int {
	sources, entries, err := mcpEntries(cfg, a, getenv)
	if err != nil {
		fmt.Fprintf(stderr, "companion mcp remove: %v\n", err)
		return 1
	}
	var found []config.MCPSource
	for _, e := range entries {
		if e.Name == name {
			found = append(found, e.Source)
		}
	}
	switch len(found) {
	case 0:
		fmt.Fprintf(stderr, "companion mcp remove: no MCP server named %q in %s\n", name, sourceNames(sources))
		return 1
	case 1:
	default:
		fmt.Fprintf(stderr, "companion mcp remove: %q is in %d files: %s; say which with --file PATH\n",
			name, len(found), sourceNames(found))
		return 1
	}
	src := found[0]
	edit := func() error { return config.RemoveMCPServer(src.Path, name) }
	if src.Scope == config.ScopeProject {
		err = keepAccepted(&cfg, edit)
	} else {
		err = edit()
	}
	if err != nil {
		fmt.Fprintf(stderr, "companion mcp remove: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "removed %q from %s\n", name, src.Path)
	if src.Owner != "companion" {
		fmt.Fprintf(stdout, "%s reads that file too: the server is gone for it as well.\n", src.Owner)
	}
	return 0
}

// keepAccepted runs edit, the user's own change to the project's files in
// the working directory: accepted if the files were (see KeepAccepted).
func keepAccepted(cfg *config.Config, edit func() error) error {
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	return cfg.KeepAccepted(wd, edit)
}
