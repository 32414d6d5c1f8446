package store

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// Writer appends records to one session log. Each Append is one write to
// the file (so records survive a crash of the process at once) and Sync
// makes them durable on disk. A Writer is safe for concurrent use.
type Writer struct {
	store *Store
	id    string
	dir   string

	// mu guards the fields below and orders writes.
	mu sync.Mutex
	f  *os.File
	// buf is reused to encode each Append.
	buf []byte
	// dirty is set when records were written since the last Sync.
	dirty bool
	// err is a failure that left the file in an unknown state; every
	// later call returns it. Store.Append repairs the log.
	err    error
	closed bool
}

// Create starts a new session log for meta (CreatedAt defaults to now) and
// returns its Writer. The header line is synced before Create returns.
func (s *Store) Create(meta Meta) (*Writer, error) {
	if err := checkID(meta.ID); err != nil {
		return nil, err
	}
	if !filepath.IsAbs(meta.Cwd) {
		return nil, fmt.Errorf("%w: cwd %q is not absolute", ErrBadMeta, meta.Cwd)
	}
	meta.Cwd = filepath.Clean(meta.Cwd)
	if meta.CreatedAt.IsZero() {
		meta.CreatedAt = time.Now()
	}
	head, err := encodeHeader(meta)
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(s.root, ProjectKey(meta.Cwd))
	if err := s.reserve(meta.ID, true); err != nil {
		return nil, err
	}
	f, err := createLog(dir, meta.ID, head)
	if err != nil {
		s.release(meta.ID)
		return nil, fmt.Errorf("create session %s: %w", meta.ID, err)
	}
	s.mu.Lock()
	s.where[meta.ID] = dir
	s.mu.Unlock()
	s.touch(dir, meta.ID)
	return &Writer{store: s, id: meta.ID, dir: dir, f: f}, nil
}

// reserve marks id as having a live Writer; fresh asks that no log exist.
func (s *Store) reserve(id string, fresh bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.open[id] {
		return fmt.Errorf("session %s: %w", id, ErrInUse)
	}
	if _, ok := s.locate(id); ok && fresh {
		return fmt.Errorf("session %s: %w", id, ErrExists)
	}
	s.open[id] = true
	return nil
}

// createLog creates dir/id.jsonl holding head, synced with its folders.
func createLog(dir, id string, head []byte) (*os.File, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	path := logPath(dir, id)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|os.O_APPEND, 0o600)
	if os.IsExist(err) {
		return nil, ErrExists
	}
	if err != nil {
		return nil, err
	}
	if _, err = f.Write(head); err == nil {
		err = f.Sync()
	}
	if err != nil {
		f.Close()
		os.Remove(path)
		return nil, err
	}
	syncDir(dir)
	syncDir(filepath.Dir(dir))
	return f, nil
}

// Append reopens session id's log for appending, after Load, to resume it.
// A torn last line (the process died mid-write) is cut off first, so new
// records start on a clean line.
func (s *Store) Append(id string) (*Writer, error) {
	if err := checkID(id); err != nil {
		return nil, err
	}
	if err := s.reserve(id, false); err != nil {
		return nil, err
	}
	s.mu.Lock()
	dir, ok := s.locate(id)
	s.mu.Unlock()
	if !ok {
		s.release(id)
		return nil, fmt.Errorf("append to %s: %w", id, ErrNotFound)
	}
	f, err := s.reopen(logPath(dir, id))
	if err != nil {
		s.release(id)
		return nil, fmt.Errorf("append to %s: %w", id, err)
	}
	s.touch(dir, id) // a repair may have shrunk the log
	return &Writer{store: s, id: id, dir: dir, f: f}, nil
}

// reopen checks the header of the log at path, repairs its tail and opens
// it for appending.
func (s *Store) reopen(path string) (*os.File, error) {
	if _, err := readHeader(path); err != nil {
		return nil, err
	}
	if err := s.repair(path); err != nil {
		return nil, err
	}
	return os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0o600)
}

// ID returns the id of the session being written.
func (w *Writer) ID() string { return w.id }

// Path is the session log's file: hooks get it as transcript_path.
func (w *Writer) Path() string { return logPath(w.dir, w.id) }

// Append writes recs as one write call, all or nothing: a record without a
// type or with invalid data (ErrBadRecord) fails the whole call. A zero
// Time is set to the current time.
func (w *Writer) Append(recs ...Record) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.appendLocked(recs)
}

// appendLocked is Append with w.mu held.
func (w *Writer) appendLocked(recs []Record) error {
	if err := w.usable(); err != nil {
		return err
	}
	buf := w.buf[:0]
	now := time.Now()
	for _, r := range recs {
		if r.Time.IsZero() {
			r.Time = now
		}
		var err error
		if buf, err = appendRecord(buf, r); err != nil {
			return fmt.Errorf("append to %s: %w", w.id, err)
		}
	}
	if cap(buf) <= maxKeptBuffer {
		w.buf = buf
	}
	if len(buf) == 0 {
		return nil
	}
	n, err := w.f.Write(buf)
	if err != nil {
		w.afterFailedWrite(n)
		return fmt.Errorf("append to %s: %w", w.id, err)
	}
	w.dirty = true
	return nil
}

// maxKeptBuffer bounds the encoding buffer a Writer keeps between calls.
const maxKeptBuffer = 1 << 20

// afterFailedWrite handles a write that failed after n bytes: a partial
// line would swallow the next record, so the Writer refuses further work
// (Store.Append cuts the partial line when the session is reopened).
func (w *Writer) afterFailedWrite(n int) {
	if n > 0 {
		w.err = fmt.Errorf("session %s: a write failed halfway; reopen the session", w.id)
	}
}

// usable reports why w cannot be used, if it cannot.
func (w *Writer) usable() error {
	if w.closed {
		return ErrClosed
	}
	return w.err
}

// Sync makes every record appended so far durable (fsync) and brings the
// session's index entry up to date (its UpdatedAt for List). The agent
// calls it at turn boundaries.
func (w *Writer) Sync() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.usable(); err != nil {
		return err
	}
	return w.syncLocked()
}

// syncLocked is Sync with w.mu held.
func (w *Writer) syncLocked() error {
	if !w.dirty {
		return nil
	}
	if err := w.f.Sync(); err != nil {
		// After a failed fsync the kernel may have dropped the pages.
		w.err = fmt.Errorf("sync session %s: %w", w.id, err)
		return w.err
	}
	w.dirty = false
	w.store.touch(w.dir, w.id)
	return nil
}

// SetTitle appends a TypeTitle record and updates the index at once, so
// List shows the new title. The record is made durable by the next Sync.
func (w *Writer) SetTitle(title string) error {
	data, err := json.Marshal(struct {
		Title string `json:"title"`
	}{title})
	if err != nil {
		return fmt.Errorf("%w: title: %w", ErrBadRecord, err)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.appendLocked([]Record{{Type: TypeTitle, Data: data}}); err != nil {
		return err
	}
	w.store.touch(w.dir, w.id)
	return nil
}

// Close syncs pending records and closes the log. Closing twice is a no-op.
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return nil
	}
	var err error
	if w.err == nil {
		err = w.syncLocked()
	}
	if cerr := w.f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("close session %s: %w", w.id, cerr)
	}
	w.closed = true
	w.store.release(w.id)
	return err
}
