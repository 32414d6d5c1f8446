package host

import "errors"

// Kinds of errors from New and Restore, to check with errors.Is; their
// text is the underlying error's, one sentence for the user.
var (
	// ErrInvalid: a directory or the project settings are not usable.
	ErrInvalid = errors.New("invalid session request")
	// ErrRules: a permission rule (settings or the front end's) is bad.
	ErrRules = errors.New("invalid permission rule")
	// ErrNotFound: no stored session has the id to restore.
	ErrNotFound = errors.New("session not found")
)

// kindError gives err a kind without changing its text.
type kindError struct {
	kind error
	err  error
}

func (e *kindError) Error() string        { return e.err.Error() }
func (e *kindError) Unwrap() error        { return e.err }
func (e *kindError) Is(target error) bool { return target == e.kind }

// mark gives err the kind kind.
func mark(kind, err error) error { return &kindError{kind: kind, err: err} }
