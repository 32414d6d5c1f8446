package config

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
)

// acceptedName is the file, in the user config directory, that records
// the project settings files the user accepted.
const acceptedName = "accepted-settings.json"

// accepted is that file's content: each accepted project settings file's
// absolute path and the hash of the content the user accepted.
type accepted struct {
	Files map[string]string `json:"files"`
}

// ProjectFile is a project's settings as read for a session: companion's
// .companion/settings.json with what Gemini CLI's .gemini/settings.json
// and Claude Code's .mcp.json add (see readProjectSources).
type ProjectFile struct {
	// Path is companion's own file's absolute path (with the root's
	// symlinks resolved), whether or not it exists: the name the user
	// accepts the project's settings under.
	Path string
	// Hash identifies the content of all the files ("sha256:…"); "" when
	// there is none.
	Hash    string
	Project Project
	// Files are the files read, Sources the file each setting came from.
	Files   []string
	Sources map[string]string
	// env is the project's .env file, when there is one.
	env *dotEnv
}

// PendingSettings describes a project settings file whose powers were
// held back because the user has not accepted its current content.
type PendingSettings struct {
	Path, Hash string
	// Files are the project files the settings came from (companion's,
	// Gemini CLI's, Claude Code's), the ones the user is to review.
	Files []string
	// Adds says what the held-back parts would grant, one phrase each.
	Adds []string
}

// FileNames names the files settings came from for a sentence: "a",
// "a and b", "a, b and c"; path when files is empty.
func FileNames(files []string, path string) string {
	switch len(files) {
	case 0:
		return path
	case 1:
		return files[0]
	}
	return strings.Join(files[:len(files)-1], ", ") + " and " + files[len(files)-1]
}

// ReadProjectFile reads root's project settings (all three files) with
// the hash of their content, and its .env file; missing files are empty.
// Variables in string values are expanded from the process environment.
func ReadProjectFile(root string) (ProjectFile, error) {
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	f := ProjectFile{Path: ProjectSettingsPath(root)}
	found, sources, err := readProjectSources(root, &f.Project, os.Getenv)
	if err != nil {
		return f, err
	}
	f.Hash, f.Sources = projectHash(root, found), sources
	for _, s := range found {
		f.Files = append(f.Files, s.path)
	}
	if env, ok := readDotEnv(root, projectEnvKey); ok {
		f.env = &env
	}
	return f, nil
}

// contentHash names file content in the accepted record.
func contentHash(data []byte) string {
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// acceptedPath is where the accepted record lives; "" without a user
// config directory.
func (c *Config) acceptedPath() string {
	if d := c.ConfigDir(); d != "" {
		return filepath.Join(d, acceptedName)
	}
	return ""
}

// readAccepted reads the accepted record; a missing or damaged one
// accepts nothing.
func (c *Config) readAccepted() accepted {
	rec := accepted{Files: map[string]string{}}
	if p := c.acceptedPath(); p != "" {
		if data, err := os.ReadFile(p); err == nil && json.Unmarshal(data, &rec) == nil && rec.Files != nil {
			return rec
		}
	}
	return accepted{Files: map[string]string{}}
}

// Accepted reports whether the user accepted the file at path with the
// content hash.
func (c *Config) Accepted(path, hash string) bool {
	return hash != "" && c.readAccepted().Files[path] == hash
}

// Accept records that the user accepted the file at path (absolute) with
// the content hash; new sessions then load all of it.
func (c *Config) Accept(path, hash string) error {
	p := c.acceptedPath()
	if p == "" {
		return errors.New("no user config directory (set HOME or XDG_CONFIG_HOME) to record accepted settings in")
	}
	rec := c.readAccepted()
	rec.Files[path] = hash
	if err := writeJSON(p, rec); err != nil {
		return fmt.Errorf("record accepted settings: %w", err)
	}
	return nil
}

// AcceptProject records root's project settings, as they are now, as
// accepted, and returns the file with what it grants.
func (c *Config) AcceptProject(root string) (ProjectFile, []string, error) {
	f, err := ReadProjectFile(root)
	if err != nil {
		return f, nil, err
	}
	if f.Hash == "" {
		return f, nil, fmt.Errorf("there are no project settings at %s", f.Path)
	}
	return f, f.Project.Powers(), c.Accept(f.Path, f.Hash)
}

// ApplyProject lays a project's settings file over c. Its parts that
// grant powers (allow rules, hooks, MCP servers, memory file names) are
// left out unless the user accepted the file's current content; the
// result then says what was held back in PendingProject. Restricting
// parts (ask and deny rules) and plain choices (the model) always apply.
func (c Config) ApplyProject(f ProjectFile) Config {
	adds := f.Project.Powers()
	var out Config
	if len(adds) == 0 || c.Accepted(f.Path, f.Hash) {
		out = c.layerProject(f.Project, f)
	} else {
		out = c.layerProject(f.Project.withoutPowers(), f)
		out.PendingProject = &PendingSettings{Path: f.Path, Hash: f.Hash, Files: f.Files, Adds: adds}
	}
	return out
}

// WithProjectLimits adds to c the rules of a project's settings that
// only restrict (deny, ask, and Gemini CLI's tools.core), for a folder
// that is not trusted: nothing else of the project is read there, but a
// rule such as Claude Code's "deny": ["Bash(rm:*)"] holds in every
// folder, as it does in Claude Code.
func (c Config) WithProjectLimits(f ProjectFile) Config {
	p := f.Project.Permissions
	limits := Permissions{Ask: p.Ask, Deny: p.Deny, Only: p.Only, Origins: p.Origins}
	if len(limits.Ask)+len(limits.Deny)+len(limits.Only) == 0 {
		return c
	}
	c.Permissions = c.Permissions.add(limits)
	c.Sources = maps.Clone(c.Sources)
	if c.Sources == nil {
		c.Sources = map[string]string{}
	}
	if src := f.Sources["permissions"]; src != "" {
		c.Sources["permissions"] = joinSource(c.Sources["permissions"], src)
	}
	return c
}

// layerProject lays p (read as f) over c, then the environment (with the
// project's .env under it) and the flags back over both: the order of
// Layers. The flags' changes are told apart from what Load left.
func (c Config) layerProject(p Project, f ProjectFile) Config {
	model, turns := c.Model, c.MaxTurnRequests
	out := c.WithProject(p)
	out.Sources = maps.Clone(c.Sources)
	if out.Sources == nil {
		out.Sources = map[string]string{}
	}
	for k, src := range f.Sources {
		if !projectKey(k, p) {
			continue
		}
		switch k { // the project's own fields, beside the user's
		case "mcpServers":
			k = "projectMcpServers"
		case "hooks":
			k = "projectHooks"
		case "lsp":
			k = "projectLsp"
		case "permissions": // the project's rules add to the user's
			src = joinSource(out.Sources[k], src)
		}
		out.Sources[k] = src
	}
	if c.loaded == nil {
		return out
	}
	env := envLayer{getenv: c.loaded.env.getenv}
	if f.env != nil {
		env.files = append(env.files, *f.env)
	}
	env.files = append(env.files, c.loaded.env.files...)
	applyEnv(&out, func(k string) (string, string) { // only what the project's layers could change
		if !projectEnvKey(k) {
			return "", ""
		}
		return env.lookup(k)
	})
	if model != c.loaded.model {
		out.Model, out.Sources["model"] = model, "flag"
	}
	if turns != c.loaded.maxTurns {
		out.MaxTurnRequests, out.Sources["maxTurnRequests"] = turns, "flag"
	}
	return out
}

// projectKey reports whether p sets the top-level setting k.
func projectKey(k string, p Project) bool {
	var top map[string]json.RawMessage
	data, err := json.Marshal(p)
	if err != nil || json.Unmarshal(data, &top) != nil {
		return false
	}
	_, ok := top[k]
	return ok
}
