package config

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// acceptedName is the file, in the user config directory, that records
// the project settings files the user accepted.
const acceptedName = "accepted-settings.json"

// accepted is that file's content: each accepted project settings file's
// absolute path and the hash of the content the user accepted.
type accepted struct {
	Files map[string]string `json:"files"`
}

// ProjectFile is a project's settings file as read for a session.
type ProjectFile struct {
	// Path is the file's absolute path, with the root's symlinks resolved.
	Path string
	// Hash identifies the content ("sha256:…"); "" when there is no file.
	Hash    string
	Project Project
}

// PendingSettings describes a project settings file whose powers were
// held back because the user has not accepted its current content.
type PendingSettings struct {
	Path, Hash string
	// Adds says what the held-back parts would grant, one phrase each.
	Adds []string
}

// ReadProjectFile reads root's project settings with the hash of their
// content; a missing file is empty.
func ReadProjectFile(root string) (ProjectFile, error) {
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	f := ProjectFile{Path: ProjectSettingsPath(root)}
	data, err := os.ReadFile(f.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return f, nil
	}
	if err != nil {
		return f, fmt.Errorf("read project settings: %w", err)
	}
	if err := json.Unmarshal(data, &f.Project); err != nil {
		return f, fmt.Errorf("project settings %s are not valid JSON: %w", f.Path, err)
	}
	f.Hash = contentHash(data)
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
	if len(adds) == 0 || c.Accepted(f.Path, f.Hash) {
		return c.WithProject(f.Project)
	}
	out := c.WithProject(f.Project.withoutPowers())
	out.PendingProject = &PendingSettings{Path: f.Path, Hash: f.Hash, Adds: adds}
	return out
}
