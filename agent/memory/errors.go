package memory

import "errors"

// Sentinel errors of the package; callers test them with errors.Is.
var (
	// ErrBadRoot means a session or project root is not an absolute path.
	ErrBadRoot = errors.New("memory: root must be an absolute path")
	// ErrEmptyFact means a fact to remember is empty.
	ErrEmptyFact = errors.New("memory: the fact to remember is empty")
)
