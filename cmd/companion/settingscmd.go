package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"companion/config"
)

const settingsUsage = `Usage:
  companion settings accept [DIR]

Accepts DIR's project settings (DIR/.companion/settings.json, with the MCP servers, model and memory
file names of DIR/.gemini/settings.json and DIR/.mcp.json; DIR defaults to the current directory) as
they are now. Until then, new or changed project settings load without their allow rules, hooks,
MCP servers and memory file names. Accepting again is needed after every change to any of the files.
`

// runSettings manages the user's acceptance of project settings.
func runSettings(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	if len(args) == 0 || args[0] != "accept" || len(args) > 2 {
		fmt.Fprint(stderr, settingsUsage)
		return 2
	}
	dir := "."
	if len(args) == 2 {
		dir = args[1]
	}
	abs, err := filepath.Abs(dir)
	if err == nil {
		_, err = os.Stat(abs)
	}
	if err != nil {
		fmt.Fprintf(stderr, "companion: %v\n", err)
		return 1
	}
	cfg, err := config.Load(getenv)
	if err != nil {
		fmt.Fprintf(stderr, "companion: %v\n", err)
		return 1
	}
	f, adds, err := cfg.AcceptProject(abs)
	if err != nil {
		fmt.Fprintf(stderr, "companion: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "accepted %s\n", config.FileNames(f.Files, f.Path))
	for _, a := range adds {
		fmt.Fprintf(stdout, "- %s\n", a)
	}
	return 0
}
