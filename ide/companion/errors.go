package companion

import "errors"

// Sentinel errors of the package; callers test them with errors.Is.
var (
	// ErrNotFound means no IDE companion server serves the working
	// directory: the agent runs outside such an editor, and callers carry
	// on without one.
	ErrNotFound = errors.New("no IDE companion server for this directory")
	// ErrUnauthorized means the IDE server refused the auth token.
	ErrUnauthorized = errors.New("IDE companion server refused the auth token")
	// ErrNoStream means the IDE server did not open its notification
	// stream, without which no context or diff answer can arrive.
	ErrNoStream = errors.New("IDE companion server did not open its notification stream")
	// ErrNotConnected means the connection to the IDE is down (it is being
	// re-established); diffs fall back to other means meanwhile.
	ErrNotConnected = errors.New("not connected to the IDE")
	// ErrConnectionLost ends a diff whose connection broke before the user
	// answered.
	ErrConnectionLost = errors.New("connection to the IDE lost")
	// ErrClosed means the client was closed.
	ErrClosed = errors.New("IDE client closed")
	// ErrDiffUnsupported means the IDE offers no openDiff / closeDiff tools.
	ErrDiffUnsupported = errors.New("the IDE offers no diff view")
	// ErrDiffPending means a diff for the same file is still open.
	ErrDiffPending = errors.New("a diff for this file is already open in the IDE")
	// ErrDiffTimeout ends a diff the user did not answer within the limit.
	ErrDiffTimeout = errors.New("no answer to the IDE diff in time")
	// ErrToolFailed means an IDE tool answered with an error result.
	ErrToolFailed = errors.New("IDE tool failed")
)
