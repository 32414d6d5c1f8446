package store

import "errors"

// Sentinel errors of the session store. Callers check them with errors.Is.
var (
	// ErrNotFound is returned by Load and Append for an id that names no
	// session.
	ErrNotFound = errors.New("no such session")
	// ErrExists is returned by Create for an id that is already taken.
	ErrExists = errors.New("a session with this id already exists")
	// ErrInUse is returned by Create, Append and Delete while a Writer of
	// this Store holds the session open: one writer per session keeps the
	// log and its index consistent.
	ErrInUse = errors.New("the session is open for writing")
	// ErrBadID is returned for a session id that cannot name a file: empty,
	// longer than 128 bytes, starting with a dot, or holding characters
	// other than ASCII letters, digits, '.', '_' and '-'.
	ErrBadID = errors.New("invalid session id")
	// ErrBadMeta is returned by Create for metadata without an absolute cwd.
	ErrBadMeta = errors.New("invalid session metadata")
	// ErrBadRecord is returned by Writer.Append for a record without a
	// type, with data that is not valid JSON, or with a time outside the
	// years 0 to 9999. Nothing of that call is written.
	ErrBadRecord = errors.New("invalid record")
	// ErrBadCursor is returned by List for a cursor it did not produce.
	ErrBadCursor = errors.New("invalid list cursor")
	// ErrCorrupt is returned when a session log has no readable header line.
	ErrCorrupt = errors.New("session log is damaged")
	// ErrVersion is returned for a session log written in a newer format.
	ErrVersion = errors.New("unsupported session log version")
	// ErrClosed is returned by a Writer's methods after Close.
	ErrClosed = errors.New("session writer is closed")
)
