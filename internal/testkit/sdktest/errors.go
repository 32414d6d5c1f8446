package sdktest

import "errors"

var (
	// ErrExited is returned by waits that end because companion exited.
	ErrExited = errors.New("companion exited")
	// errNoHandler answers requests the test gave no handler for.
	errNoHandler = errors.New("the test SDK has no handler for this request")
	// errNoType rejects a JSON line without a type.
	errNoType = errors.New("a JSON line without a type")
)
