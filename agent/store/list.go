package store

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// DefaultLimit is the page size of List when ListOptions.Limit is not set.
const DefaultLimit = 50

// ListOptions selects a page of sessions for List.
type ListOptions struct {
	// Cwd keeps only the sessions of this working directory; "" lists all.
	Cwd string
	// Cursor continues after the page that returned it; "" starts at the
	// newest session.
	Cursor string
	// Limit is the page size; 0 or less means DefaultLimit.
	Limit int
	// Titled keeps only sessions with a title: the agent names a session
	// at its first prompt, so one opened and never used is left out.
	Titled bool
}

// Info is what List tells of a session, read from the project indexes.
type Info struct {
	ID                    string
	Cwd                   string
	AdditionalDirectories []string
	// Title is the last one set with SetTitle ("" when none).
	Title string
	// UpdatedAt is the time of the session's last record.
	UpdatedAt time.Time
	CreatedAt time.Time
}

// List returns a page of sessions, most recently updated first (ties by
// id, descending), and the cursor of the next page ("" after the last).
// A cursor stays valid while sessions are created or updated: the next
// page holds the sessions that sorted after the last one seen. A cursor
// List did not make is ErrBadCursor. Indexes that are missing or stale
// are rebuilt from the logs on the way.
func (s *Store) List(opts ListOptions) ([]Info, string, error) {
	after, err := decodeCursor(opts.Cursor)
	if err != nil {
		return nil, "", err
	}
	limit := opts.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	cwd := ""
	if opts.Cwd != "" {
		cwd = filepath.Clean(opts.Cwd)
	}
	dirs, err := s.projectDirs(cwd)
	if err != nil {
		return nil, "", fmt.Errorf("list sessions: %w", err)
	}
	var all []Info
	for _, dir := range dirs {
		infos, err := s.projectInfos(dir, listFilter{cwd: cwd, titled: opts.Titled}, after)
		if err != nil {
			return nil, "", fmt.Errorf("list sessions: %w", err)
		}
		all = append(all, infos...)
	}
	slices.SortFunc(all, func(a, b Info) int { return -compareKey(a.UpdatedAt, a.ID, b.UpdatedAt, b.ID) })
	next := ""
	if len(all) > limit {
		all = all[:limit]
		next = encodeCursor(all[limit-1])
	}
	return all, next, nil
}

// projectDirs returns the project folders to list: cwd's, or every one.
func (s *Store) projectDirs(cwd string) ([]string, error) {
	if cwd != "" {
		return []string{filepath.Join(s.root, ProjectKey(cwd))}, nil
	}
	entries, err := os.ReadDir(s.root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var dirs []string
	for _, e := range entries {
		if e.IsDir() {
			dirs = append(dirs, filepath.Join(s.root, e.Name()))
		}
	}
	return dirs, nil
}

// listFilter is which sessions List keeps: those of cwd (any when ""),
// and only titled ones when titled is set.
type listFilter struct {
	cwd    string
	titled bool
}

// projectInfos returns the sessions of project folder dir that pass f and
// sort after the cursor position (all when nil).
func (s *Store) projectInfos(dir string, f listFilter, after *cursor) ([]Info, error) {
	idx, err := s.project(dir)
	if err != nil {
		return nil, err
	}
	var infos []Info
	s.mu.Lock()
	defer s.mu.Unlock()
	for id, e := range idx.Sessions {
		s.where[id] = dir
		if (f.cwd != "" && e.Cwd != f.cwd) || (f.titled && e.Title == "") {
			continue
		}
		if after != nil && compareKey(e.UpdatedAt, id, after.UpdatedAt, after.ID) >= 0 {
			continue
		}
		infos = append(infos, Info{ID: id, Cwd: e.Cwd, AdditionalDirectories: e.AdditionalDirectories,
			Title: e.Title, UpdatedAt: e.UpdatedAt, CreatedAt: e.CreatedAt})
	}
	return infos, nil
}

// compareKey orders sessions by (updatedAt, id), ascending.
func compareKey(t1 time.Time, id1 string, t2 time.Time, id2 string) int {
	if c := t1.Compare(t2); c != 0 {
		return c
	}
	return strings.Compare(id1, id2)
}

// cursor is the position a page ended at: its last session's sort key.
type cursor struct {
	UpdatedAt time.Time `json:"u"`
	ID        string    `json:"id"`
}

// encodeCursor makes the opaque cursor that continues after info.
func encodeCursor(info Info) string {
	b, _ := json.Marshal(cursor{UpdatedAt: info.UpdatedAt, ID: info.ID}) // always marshals
	return base64.RawURLEncoding.EncodeToString(b)
}

// decodeCursor reads a cursor made by encodeCursor; "" is nil.
func decodeCursor(s string) (*cursor, error) {
	if s == "" {
		return nil, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadCursor, err)
	}
	var c cursor
	if err := json.Unmarshal(b, &c); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadCursor, err)
	}
	if checkID(c.ID) != nil {
		return nil, ErrBadCursor
	}
	return &c, nil
}
