package lsp

import (
	"encoding/json"
	"fmt"
	"maps"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// Server is one language server as the settings describe it, in the shape
// Zed and OpenCode use under "lsp": the command with its arguments, the
// languages or file extensions it serves, the files that mark a project
// root, initialization options and environment.
type Server struct {
	// Name is the settings key ("gopls").
	Name string
	// Command is the program; Args its arguments.
	Command string
	Args    []string
	// Extensions are the file extensions served, with their dot.
	Extensions []string
	// RootMarkers are file names whose folder is a project root; the
	// nearest one above an edited file wins.
	RootMarkers []string
	// InitializationOptions are sent as they are in initialize.
	InitializationOptions json.RawMessage
	// Env is set on top of companion's environment.
	Env map[string]string
	// Install is the command that installs the server, for the sentence
	// that says it is missing.
	Install string
	// Project is set for a server the project's settings configure: it
	// runs only in a trusted workspace.
	Project bool
	// Path is Command found on PATH; "" when it is missing.
	Path string
}

// serverSettings is one entry of the "lsp" setting. Command is a string
// or, as OpenCode writes it, a list whose head is the program.
type serverSettings struct {
	Command               json.RawMessage   `json:"command"`
	Args                  []string          `json:"args"`
	Languages             []string          `json:"languages"`
	Extensions            []string          `json:"extensions"`
	RootMarkers           []string          `json:"rootMarkers"`
	InitializationOptions json.RawMessage   `json:"initializationOptions"`
	Initialization        json.RawMessage   `json:"initialization"`
	Env                   map[string]string `json:"env"`
	Disabled              bool              `json:"disabled"`
}

// Resolve returns the servers of the settings (user's, then project's,
// each a raw "lsp" object by name) laid over the built-in defaults: an
// entry replaces the default of its name field by field, "disabled": true
// removes it. lookPath finds commands (nil: exec.LookPath); a server
// whose command is missing is kept with an empty Path. Problems are
// returned one sentence each.
func Resolve(user, project json.RawMessage, lookPath func(string) (string, error)) ([]Server, []string) {
	if lookPath == nil {
		lookPath = exec.LookPath
	}
	byName := map[string]Server{}
	for _, s := range defaults(lookPath) {
		byName[s.Name] = s
	}
	var problems []string
	for _, layer := range []struct {
		raw     json.RawMessage
		project bool
	}{{user, false}, {project, true}} {
		problems = append(problems, overlay(byName, layer.raw, layer.project)...)
	}
	out := make([]Server, 0, len(byName))
	for _, name := range slices.Sorted(maps.Keys(byName)) {
		s := byName[name]
		if s.Path == "" && s.Command != "" {
			s.Path, _ = lookPath(s.Command)
		}
		out = append(out, s)
	}
	return out, problems
}

// overlay lays one "lsp" setting over byName.
func overlay(byName map[string]Server, raw json.RawMessage, project bool) []string {
	if s := strings.TrimSpace(string(raw)); s == "" || s == "null" {
		return nil
	}
	var entries map[string]serverSettings
	if err := json.Unmarshal(raw, &entries); err != nil {
		return []string{fmt.Sprintf("the \"lsp\" setting is not an object of servers: %v", err)}
	}
	var problems []string
	for _, name := range slices.Sorted(maps.Keys(entries)) {
		e := entries[name]
		if e.Disabled {
			delete(byName, name)
			continue
		}
		s, err := e.apply(byName[name])
		if err != nil {
			problems = append(problems, fmt.Sprintf("language server %s skipped: %v", name, err))
			continue
		}
		s.Name, s.Project = name, s.Project || project
		byName[name] = s
	}
	return problems
}

// apply lays the entry over base (a default, or the zero Server).
func (e serverSettings) apply(base Server) (Server, error) {
	s := base
	if len(e.Command) > 0 {
		argv, err := commandLine(e.Command)
		if err != nil {
			return s, err
		}
		s.Command, s.Args, s.Path = argv[0], argv[1:], ""
	}
	if e.Args != nil {
		s.Args = e.Args
	}
	if exts := append(extensionsOf(e.Languages), normalizeExts(e.Extensions)...); len(exts) > 0 {
		s.Extensions = exts
	}
	if e.RootMarkers != nil {
		s.RootMarkers = e.RootMarkers
	}
	for _, opts := range []json.RawMessage{e.Initialization, e.InitializationOptions} {
		if len(opts) > 0 {
			s.InitializationOptions = opts
		}
	}
	if e.Env != nil {
		s.Env = e.Env
	}
	switch {
	case s.Command == "":
		return s, fmt.Errorf("no command")
	case len(s.Extensions) == 0:
		return s, fmt.Errorf("no languages or extensions")
	}
	return s, nil
}

// commandLine reads "command": a string or a non-empty list of strings.
func commandLine(raw json.RawMessage) ([]string, error) {
	var one string
	if json.Unmarshal(raw, &one) == nil && one != "" {
		return []string{one}, nil
	}
	var list []string
	if json.Unmarshal(raw, &list) == nil && len(list) > 0 && list[0] != "" {
		return list, nil
	}
	return nil, fmt.Errorf("command must be a string or a list of strings")
}

// normalizeExts gives every extension its leading dot.
func normalizeExts(exts []string) []string {
	out := make([]string, 0, len(exts))
	for _, e := range exts {
		if e = strings.TrimSpace(e); e != "" && !strings.HasPrefix(e, ".") {
			e = "." + e
		}
		if e != "" {
			out = append(out, e)
		}
	}
	return out
}

// Serves reports whether s serves the file at path (by extension).
func (s Server) Serves(path string) bool {
	return slices.Contains(s.Extensions, strings.ToLower(filepath.Ext(path)))
}

// Missing is the sentence telling that s's command is not installed, with
// how to install it.
func (s Server) Missing() string {
	msg := fmt.Sprintf("%s is not installed (%s is not on PATH)", s.Name, s.Command)
	if s.Install != "" {
		msg += "; install it with: " + s.Install
	}
	return msg
}
