package ide

import "errors"

// Sentinel errors of the package; callers test them with errors.Is.
var (
	// ErrInvalidUpdate means a context update's params are malformed: not
	// JSON, not an object, or a field of the wrong type.
	ErrInvalidUpdate = errors.New("invalid IDE context update")
	// ErrNotFileURI means a URI is not a file:// URI.
	ErrNotFileURI = errors.New("not a file URI")
)
