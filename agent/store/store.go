package store

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// Store keeps session logs under <stateDir>/sessions. It is safe for
// concurrent use; one Store per process is enough.
type Store struct {
	root string
	log  *slog.Logger

	// indexMu serialises read-modify-write cycles of index files within
	// this process (other processes may race; see the package doc).
	indexMu sync.Mutex

	// mu guards the two maps below. Taken after indexMu when both are held.
	mu sync.Mutex
	// open holds the ids with a live Writer.
	open map[string]bool
	// where caches the project folder of ids seen, to spare Find a scan.
	where map[string]string
}

// Open returns a Store keeping its logs under stateDir/sessions. It does no
// I/O: folders are created by the first Create. A nil log discards logs.
func Open(stateDir string, log *slog.Logger) *Store {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Store{
		root:  filepath.Join(stateDir, "sessions"),
		log:   log,
		open:  make(map[string]bool),
		where: make(map[string]string),
	}
}

// logExt ends the name of every session log.
const logExt = ".jsonl"

// ProjectKey names the folder holding the sessions of cwd: a readable slug
// of its last element and the first 8 hex digits of the SHA-256 of the
// cleaned path, e.g. "myrepo-1a2b3c4d". Equal paths give equal keys; the
// path is not resolved (no symlinks, no case folding).
func ProjectKey(cwd string) string {
	cwd = filepath.Clean(cwd)
	sum := sha256.Sum256([]byte(cwd))
	return slug(filepath.Base(cwd)) + "-" + hex.EncodeToString(sum[:4])
}

// maxSlug bounds the readable part of a project key.
const maxSlug = 32

// slug lowercases name and keeps letters, digits, '.', '_' and '-',
// replacing runs of other characters with one '-'.
func slug(name string) string {
	var b strings.Builder
	dash := false
	for _, c := range strings.ToLower(name) {
		ok := c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-'
		switch {
		case ok:
			b.WriteRune(c)
			dash = false
		case !dash:
			b.WriteByte('-')
			dash = true
		}
		if b.Len() >= maxSlug {
			break
		}
	}
	s := strings.Trim(b.String(), "-.")
	if s == "" {
		return "root"
	}
	return s
}

// maxID bounds the length of a session id.
const maxID = 128

// checkID reports ErrBadID for an id that could not be a plain file name.
func checkID(id string) error {
	if id == "" || len(id) > maxID || id[0] == '.' {
		return fmt.Errorf("%w: %q", ErrBadID, id)
	}
	for _, c := range []byte(id) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			return fmt.Errorf("%w: %q", ErrBadID, id)
		}
	}
	return nil
}

// logPath is the log file of id in project folder dir.
func logPath(dir, id string) string { return filepath.Join(dir, id+logExt) }

// locate returns the project folder holding id's log, trying the cache
// before scanning every project folder. s.mu must be held.
func (s *Store) locate(id string) (string, bool) {
	if dir, ok := s.where[id]; ok {
		if fileExists(logPath(dir, id)) {
			return dir, true
		}
		delete(s.where, id)
	}
	entries, err := os.ReadDir(s.root)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		s.log.Warn("session store: reading the sessions folder", "err", err)
	}
	for _, e := range entries {
		dir := filepath.Join(s.root, e.Name())
		if e.IsDir() && fileExists(logPath(dir, id)) {
			s.where[id] = dir
			return dir, true
		}
	}
	return "", false
}

// fileExists reports whether path names a regular file.
func fileExists(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular()
}

// Find returns the metadata of session id, whatever its project, and
// whether it exists with a readable header.
func (s *Store) Find(id string) (Meta, bool) {
	if checkID(id) != nil {
		return Meta{}, false
	}
	s.mu.Lock()
	dir, ok := s.locate(id)
	s.mu.Unlock()
	if !ok {
		return Meta{}, false
	}
	meta, err := readHeader(logPath(dir, id))
	if err != nil {
		s.log.Warn("session store: unreadable session", "session", id, "err", err)
		return Meta{}, false
	}
	meta.ID = id
	return meta, true
}

// Delete removes session id's log and its index entry. An id that names no
// session is not an error; an open one is ErrInUse.
func (s *Store) Delete(id string) error {
	if err := checkID(id); err != nil {
		return err
	}
	s.mu.Lock()
	if s.open[id] {
		s.mu.Unlock()
		return fmt.Errorf("delete %s: %w", id, ErrInUse)
	}
	dir, ok := s.locate(id)
	var err error
	if ok {
		err = os.Remove(logPath(dir, id))
		delete(s.where, id)
	}
	s.mu.Unlock()
	if !ok || errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("delete session %s: %w", id, err)
	}
	s.dropEntry(dir, id)
	return nil
}

// release forgets id's live Writer.
func (s *Store) release(id string) {
	s.mu.Lock()
	delete(s.open, id)
	s.mu.Unlock()
}

// syncDir makes a folder's entries durable where the system allows it
// (not on Windows, where opening a folder for sync fails and is ignored).
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}
