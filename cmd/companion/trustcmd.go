package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"companion/config"
)

const trustUsage = `Usage:
  companion trust [DIR]            trust DIR (default: the current directory) and the folders under it
  companion trust --revoke [DIR]   stop trusting DIR
  companion trust --list           list the folders trusted this way

Trusted folders are stored in trusted-folders.json in the user config directory and count as
folderTrust.trusted entries. With "folderTrust": {"enabled": true} in your settings, companion loads a
project's settings, hooks, MCP servers, file commands and subagents and offers yolo and auto-edit only
in trusted folders. An editor that says its workspace is not trusted always wins.
`

// runTrust grants, revokes or lists folder trust.
func runTrust(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	fs := flag.NewFlagSet("companion trust", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, trustUsage) }
	revoke := fs.Bool("revoke", false, "stop trusting DIR")
	list := fs.Bool("list", false, "list the trusted folders")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 1 || (*list && (*revoke || fs.NArg() > 0)) {
		fmt.Fprint(stderr, trustUsage)
		return 2
	}
	cfg, err := config.Load(getenv)
	if err != nil {
		fmt.Fprintf(stderr, "companion: %v\n", err)
		return 1
	}
	if *list {
		for _, f := range cfg.TrustedFolders() {
			fmt.Fprintln(stdout, f)
		}
		return 0
	}
	dir := "."
	if fs.NArg() == 1 {
		dir = fs.Arg(0)
	}
	if *revoke {
		return revokeTrust(&cfg, dir, stdout, stderr)
	}
	return grantTrust(&cfg, dir, stdout, stderr)
}

// grantTrust records dir, an existing directory, as trusted.
func grantTrust(cfg *config.Config, dir string, stdout, stderr io.Writer) int {
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		fmt.Fprintf(stderr, "companion: %s is not a directory\n", dir)
		return 1
	}
	abs, err := cfg.TrustFolder(dir)
	if err != nil {
		fmt.Fprintf(stderr, "companion: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "trusted %s\n", abs)
	if !cfg.FolderTrust.Enabled {
		fmt.Fprintln(stdout, `note: folderTrust is off in your settings, so every folder is already trusted unless the editor says otherwise; set "folderTrust": {"enabled": true} to trust only listed folders`)
	}
	return 0
}

// revokeTrust removes dir from the trusted folders.
func revokeTrust(cfg *config.Config, dir string, stdout, stderr io.Writer) int {
	abs, removed, err := cfg.RevokeFolder(dir)
	if err != nil {
		fmt.Fprintf(stderr, "companion: %v\n", err)
		return 1
	}
	if !removed {
		fmt.Fprintf(stdout, "%s was not trusted with companion trust\n", abs)
	} else {
		fmt.Fprintf(stdout, "revoked trust in %s\n", abs)
	}
	if cfg.FolderTrust.Enabled && cfg.FolderTrust.Trusts(abs) {
		fmt.Fprintf(stdout, "note: %s is still trusted through folderTrust.trusted in %s\n", abs, cfg.SettingsPath)
	}
	return 0
}
