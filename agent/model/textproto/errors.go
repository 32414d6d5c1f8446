package textproto

import "errors"

// Why a call block did not parse; the sentence ends up in the note shown
// after the block, which the model reads on its next turn.
var (
	errEmptyCall = errors.New("the block is empty")
	errBadJSON   = errors.New("its JSON is invalid")
	errNoName    = errors.New(`it has no "name"`)
	errArgs      = errors.New(`its "arguments" are not a JSON object`)
	errNotCall   = errors.New("it is not a tool call")
)
