package scripted

import "errors"

// ErrBadScript wraps every problem ParseScript and LoadScript find in a
// script, so callers can tell a bad file from an unreadable one.
var ErrBadScript = errors.New("bad script")
