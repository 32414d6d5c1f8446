package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"reflect"
	"text/tabwriter"

	"companion/config"
	"companion/internal/cli"
)

const configUsage = `Usage:
  companion config show [--json] [--dir DIR] [model flags]

Prints the settings a session in DIR (default: the current directory) would start with, merged
from every layer, and where each came from (a file, an environment variable, a .env file, a flag
or the default). Key values are never printed. The model flags are those of 'companion acp'.
`

// configReport is what `companion config show --json` prints.
type configReport struct {
	Layers   []string         `json:"layers"`
	Trusted  bool             `json:"trusted"`
	Settings []config.Setting `json:"settings"`
	Pending  []string         `json:"pending,omitempty"`
	Warnings []string         `json:"warnings,omitempty"`
	// Unsupported names the keys of Gemini CLI's and Claude Code's
	// settings files that companion does not read, one line per file.
	Unsupported []string `json:"unsupported,omitempty"`
	// LanguageServers are the language servers a session here would
	// use, one sentence each (where found, or how to install).
	LanguageServers []string `json:"languageServers,omitempty"`
}

// runConfig prints the merged settings.
func runConfig(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	if len(args) == 0 || args[0] != "show" {
		fmt.Fprint(stderr, configUsage)
		return 2
	}
	fs := flag.NewFlagSet("companion config show", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print JSON")
	dir := fs.String("dir", "", "the workspace `folder` (default: the current directory)")
	var f cli.Flags
	f.Register(fs)
	if err := fs.Parse(args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	rep, err := mergedConfig(getenv, f, *dir)
	if err != nil {
		fmt.Fprintf(stderr, "companion: %v\n", err)
		return 1
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return 1
		}
		return 0
	}
	printConfig(stdout, rep)
	return 0
}

// mergedConfig loads the settings as a session in dir would: the user's
// with the environment, the flags, then the project's in a trusted
// folder (host.SessionConfig's rule; the editor's word is not known
// here).
func mergedConfig(getenv func(string) string, f cli.Flags, dir string) (configReport, error) {
	base, err := config.Load(getenv)
	if err != nil {
		return configReport{}, err
	}
	cfg, err := cli.LoadConfig(getenv, f)
	if err != nil {
		return configReport{}, err
	}
	markFlags(&cfg, base)
	if dir == "" {
		if dir, err = os.Getwd(); err != nil {
			return configReport{}, err
		}
	}
	rep := configReport{Layers: config.Layers(), Trusted: cfg.FolderTrust.Trusts(dir), Warnings: cfg.Warnings}
	if rep.Trusted {
		pf, err := config.ReadProjectFile(dir)
		if err != nil {
			return rep, err
		}
		cfg = cfg.ApplyProject(pf)
		if p := cfg.PendingProject; p != nil {
			rep.Pending = p.Adds
		}
	}
	rep.Settings, rep.Unsupported = cfg.Show(), cfg.Unread
	rep.LanguageServers = cli.LanguageServers(cfg, dir)
	notes, err := cli.CheckRules(cfg)
	if err != nil {
		notes = append(notes, err.Error())
	}
	rep.Warnings = append(rep.Warnings, notes...)
	return rep, nil
}

// markFlags names "flag" as the source of every setting the flags
// changed from what the settings and environment said.
func markFlags(cfg *config.Config, base config.Config) {
	before := map[string]any{}
	for _, s := range base.Show() {
		before[s.Key] = s.Value
	}
	sources := map[string]string{}
	for k, v := range cfg.Sources {
		sources[k] = v
	}
	for _, s := range cfg.Show() {
		if !reflect.DeepEqual(before[s.Key], s.Value) {
			sources[s.Key] = "flag"
		}
	}
	cfg.Sources = sources
}

// printConfig prints the report as text: one setting a line.
func printConfig(w io.Writer, rep configReport) {
	fmt.Fprintln(w, "Layers, each over the one before:")
	for i, l := range rep.Layers {
		fmt.Fprintf(w, "  %d. %s\n", i+1, l)
	}
	if !rep.Trusted {
		fmt.Fprintln(w, "This folder is not trusted: its project settings and .env are not read.")
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, s := range rep.Settings {
		v, _ := json.Marshal(s.Value)
		fmt.Fprintf(tw, "%s\t%s\t%s\n", s.Key, clip(string(v), 80), s.Source)
	}
	tw.Flush()
	for _, p := range rep.Pending {
		fmt.Fprintf(w, "held back until accepted (companion settings accept): %s\n", p)
	}
	if len(rep.LanguageServers) > 0 {
		fmt.Fprintln(w, "Language servers:")
		for _, l := range rep.LanguageServers {
			fmt.Fprintf(w, "  %s\n", l)
		}
	}
	for _, warn := range rep.Warnings {
		fmt.Fprintf(w, "warning: %s\n", warn)
	}
	for _, u := range rep.Unsupported {
		fmt.Fprintf(w, "notice: %s\n", u)
	}
}

// clip shortens s to at most n bytes with an ellipsis.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-3] + "..."
}
