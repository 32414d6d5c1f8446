package acpgen

import "errors"

// Sentinel errors of the generator. Generate wraps them with the definition
// or property at fault.
var (
	// ErrSchema means the schema or meta file is not valid JSON of the
	// expected shape.
	ErrSchema = errors.New("malformed ACP schema")
	// ErrUnsupported means a definition uses a shape the generator does not
	// know how to map to Go; extend the generator rather than hand-edit.
	ErrUnsupported = errors.New("unsupported schema construct")
	// ErrNameClash means two generated Go names collide.
	ErrNameClash = errors.New("generated name clash")
)
