package openai

import "errors"

// ErrBadBaseURL is returned by New for a base URL that is not an absolute
// http or https URL.
var ErrBadBaseURL = errors.New("the OpenAI-compatible base URL must be an absolute http:// or https:// URL, e.g. http://localhost:11434/v1")
