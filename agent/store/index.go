package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// indexName is the file in each project folder that caches what List
// shows; indexVersion is its format.
const (
	indexName    = "index.json"
	indexVersion = 1
)

// index is the JSON shape of index.json. It is only a cache of facts
// derived from the logs, so a missing, damaged or stale index is rebuilt
// from them.
type index struct {
	Version  int               `json:"version"`
	Sessions map[string]*entry `json:"sessions"`
}

// entry is what the index knows of one log, and which part of it.
type entry struct {
	Cwd                   string    `json:"cwd"`
	AdditionalDirectories []string  `json:"additionalDirectories,omitempty"`
	Title                 string    `json:"title,omitempty"`
	CreatedAt             time.Time `json:"createdAt"`
	// UpdatedAt is the time of the last complete record (CreatedAt for a
	// log without records).
	UpdatedAt time.Time `json:"updatedAt"`
	// Size and ModTime are the log's when it was scanned: a log whose
	// current ones differ is scanned again.
	Size    int64     `json:"size"`
	ModTime time.Time `json:"modTime"`
	// Offset ends the last complete line scanned: a log that grew is
	// scanned from there only.
	Offset int64 `json:"offset"`
}

// scanBuffer is the read buffer for scanning logs into the index.
const scanBuffer = 256 << 10

// readIndex returns dir's index, or an empty one when it is missing or
// unreadable (then rebuilt by the caller's refreshes).
func (s *Store) readIndex(dir string) *index {
	b, err := os.ReadFile(filepath.Join(dir, indexName))
	idx := &index{}
	if err == nil {
		err = json.Unmarshal(b, idx)
	}
	if err == nil && idx.Version != indexVersion {
		err = fmt.Errorf("index version %d", idx.Version)
	}
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			s.log.Warn("session store: rebuilding a damaged index", "dir", dir, "err", err)
		}
		idx = &index{Version: indexVersion}
	}
	if idx.Sessions == nil {
		idx.Sessions = make(map[string]*entry)
	}
	return idx
}

// writeIndex replaces dir's index atomically (temporary file and rename).
// It is not synced: a crash loses at most cache, which is rebuilt.
func writeIndex(dir string, idx *index) error {
	b, err := json.Marshal(idx)
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "index-*.tmp")
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), filepath.Join(dir, indexName))
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// touch brings session id's index entry up to date with its log. Failures
// are logged only: the index is a cache.
func (s *Store) touch(dir, id string) {
	s.indexMu.Lock()
	defer s.indexMu.Unlock()
	idx := s.readIndex(dir)
	changed, err := s.refresh(dir, id, idx)
	if err != nil {
		s.log.Warn("session store: indexing a session", "session", id, "err", err)
	}
	if changed {
		if err := writeIndex(dir, idx); err != nil {
			s.log.Warn("session store: writing the index", "dir", dir, "err", err)
		}
	}
}

// dropEntry removes session id from dir's index.
func (s *Store) dropEntry(dir, id string) {
	s.indexMu.Lock()
	defer s.indexMu.Unlock()
	idx := s.readIndex(dir)
	if _, ok := idx.Sessions[id]; !ok {
		return
	}
	delete(idx.Sessions, id)
	if err := writeIndex(dir, idx); err != nil {
		s.log.Warn("session store: writing the index", "dir", dir, "err", err)
	}
}

// project returns dir's index with every entry up to date: stale entries
// rescanned, missing ones added, those of removed logs dropped.
func (s *Store) project(dir string) (*index, error) {
	s.indexMu.Lock()
	defer s.indexMu.Unlock()
	files, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return &index{Version: indexVersion}, nil
	}
	if err != nil {
		return nil, err
	}
	idx := s.readIndex(dir)
	changed := false
	seen := make(map[string]bool, len(files))
	for _, f := range files {
		id, ok := strings.CutSuffix(f.Name(), logExt)
		if !ok || !f.Type().IsRegular() || checkID(id) != nil {
			continue
		}
		seen[id] = true
		c, err := s.refresh(dir, id, idx)
		if err != nil {
			s.log.Warn("session store: indexing a session", "session", id, "err", err)
		}
		changed = changed || c
	}
	for id := range idx.Sessions {
		if !seen[id] {
			delete(idx.Sessions, id)
			changed = true
		}
	}
	if changed {
		if err := writeIndex(dir, idx); err != nil {
			s.log.Warn("session store: writing the index", "dir", dir, "err", err)
		}
	}
	return idx, nil
}

// refresh rescans session id's log into idx when the log changed since
// its entry was made, and reports whether the entry changed. A missing or
// unreadable log loses its entry.
func (s *Store) refresh(dir, id string, idx *index) (bool, error) {
	path := logPath(dir, id)
	old := idx.Sessions[id]
	fi, err := os.Stat(path)
	if err == nil && old != nil && old.Size == fi.Size() && old.ModTime.Equal(fi.ModTime()) {
		return false, nil
	}
	var e *entry
	if err == nil {
		e, err = scanLog(path, old, fi.Size())
	}
	if err != nil {
		delete(idx.Sessions, id)
		if errors.Is(err, fs.ErrNotExist) {
			err = nil
		}
		return old != nil, err
	}
	e.ModTime = fi.ModTime()
	idx.Sessions[id] = e
	return true, nil
}

// scanLog derives the entry of the log at path from its first size bytes,
// starting where old stopped when the log only grew since.
func scanLog(path string, old *entry, size int64) (*entry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var e entry
	start := int64(0)
	if old != nil && old.Offset > 0 && old.Offset <= size && endsLine(f, old.Offset) {
		e, start = *old, old.Offset
	}
	lr := newLineReader(io.NewSectionReader(f, start, size-start), scanBuffer)
	if start == 0 {
		if e, start, err = scanHeader(lr); err != nil {
			return nil, err
		}
	}
	var p parser
	for {
		line, n, complete, err := lr.next()
		if !complete {
			if err != nil && err != io.EOF {
				return nil, err
			}
			break
		}
		start += int64(n)
		r, err := p.parse(line)
		if err != nil {
			continue
		}
		if !r.Time.IsZero() {
			e.UpdatedAt = r.Time
		}
		if r.Type == TypeTitle {
			if t, ok := titleOf(r.Data); ok {
				e.Title = t
			}
		}
	}
	e.Offset, e.Size = start, size
	return &e, nil
}

// scanHeader reads the header line of a log into a fresh entry and returns
// the bytes it took.
func scanHeader(lr *lineReader) (entry, int64, error) {
	line, n, complete, err := lr.next()
	if !complete {
		if err == nil || err == io.EOF {
			err = fmt.Errorf("%w: no complete header line", ErrCorrupt)
		}
		return entry{}, 0, err
	}
	meta, err := parseHeader(line)
	if err != nil {
		return entry{}, 0, err
	}
	return entry{Cwd: meta.Cwd, AdditionalDirectories: meta.AdditionalDirectories,
		CreatedAt: meta.CreatedAt, UpdatedAt: meta.CreatedAt}, int64(n), nil
}

// endsLine reports whether the byte before offset off of f is a newline.
func endsLine(f *os.File, off int64) bool {
	var b [1]byte
	_, err := f.ReadAt(b[:], off-1)
	return err == nil && b[0] == '\n'
}
