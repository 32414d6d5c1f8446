package hooks

import "errors"

// Sentinel errors of the hooks package.
var (
	// ErrUnknownEvent is returned by Run and Parse for an event name that
	// is not one of Events().
	ErrUnknownEvent = errors.New("unknown hook event")
	// ErrBadConfig marks a hook entry of the settings that cannot be used.
	ErrBadConfig = errors.New("bad hook configuration")
	// ErrTimeout marks a hook that ran past its timeout and was killed.
	ErrTimeout = errors.New("hook timed out")
	// ErrExit marks a hook that exited with a status other than 0 or 2.
	ErrExit = errors.New("hook failed")
	// ErrStart marks a hook command that could not be started.
	ErrStart = errors.New("hook could not be started")
	// ErrBadOutput marks a hook whose stdout looked like JSON but was not
	// a valid answer.
	ErrBadOutput = errors.New("hook printed an invalid answer")
)
