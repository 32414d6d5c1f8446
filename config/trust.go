package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
)

// trustedName is the file, in the user config directory, that lists the
// folders the user trusted with `companion trust`. They count as
// folderTrust.trusted entries.
const trustedName = "trusted-folders.json"

// trustedFolders is that file's content.
type trustedFolders struct {
	Folders []string `json:"folders"`
}

// trustedPath is where the trusted folders file lives; "" without a user
// config directory.
func (c *Config) trustedPath() string {
	if d := c.ConfigDir(); d != "" {
		return filepath.Join(d, trustedName)
	}
	return ""
}

// readTrusted reads the trusted folders file; a missing or damaged one
// trusts nothing.
func (c *Config) readTrusted() trustedFolders {
	var rec trustedFolders
	if p := c.trustedPath(); p != "" {
		if data, err := os.ReadFile(p); err == nil && json.Unmarshal(data, &rec) == nil {
			return rec
		}
	}
	return trustedFolders{}
}

// TrustedFolders lists the folders trusted with TrustFolder.
func (c *Config) TrustedFolders() []string { return c.readTrusted().Folders }

// TrustFolder records dir (made absolute) as trusted, for folderTrust and
// this configuration's FolderTrust.Trusted alike.
func (c *Config) TrustFolder(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	p := c.trustedPath()
	if p == "" {
		return abs, errors.New("no user config directory (set HOME or XDG_CONFIG_HOME) to record trusted folders in")
	}
	rec := c.readTrusted()
	if !slices.Contains(rec.Folders, abs) {
		rec.Folders = append(rec.Folders, abs)
		if err := writeJSON(p, rec); err != nil {
			return abs, fmt.Errorf("record trusted folder: %w", err)
		}
	}
	if !slices.Contains(c.FolderTrust.Trusted, abs) {
		c.FolderTrust.Trusted = append(c.FolderTrust.Trusted, abs)
	}
	return abs, nil
}

// RevokeFolder removes dir (made absolute) from the trusted folders file
// and this configuration; removed is false when the file did not list it.
// Folders listed in the settings' folderTrust.trusted stay trusted.
func (c *Config) RevokeFolder(dir string) (abs string, removed bool, err error) {
	if abs, err = filepath.Abs(dir); err != nil {
		return "", false, err
	}
	rec := c.readTrusted()
	if !slices.Contains(rec.Folders, abs) {
		return abs, false, nil
	}
	rec.Folders = slices.DeleteFunc(rec.Folders, func(f string) bool { return f == abs })
	if err := writeJSON(c.trustedPath(), rec); err != nil {
		return abs, false, fmt.Errorf("revoke trusted folder: %w", err)
	}
	c.FolderTrust.Trusted = slices.DeleteFunc(c.FolderTrust.Trusted, func(f string) bool { return f == abs })
	return abs, true, nil
}

// writeJSON writes v as indented JSON to path through a temporary file,
// creating the directory (private to the user) when needed.
func writeJSON(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+"-*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(append(data, '\n'))
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), path)
	}
	if werr != nil {
		os.Remove(tmp.Name())
	}
	return werr
}
