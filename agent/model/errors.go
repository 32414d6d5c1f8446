package model

// APIError is a model provider's failure after it gave up (retries spent, or
// a request the provider will not retry). Its Error is one sentence a user
// can act on, so front ends can show it as it is; callers tell it apart from
// other failures with errors.As.
type APIError struct {
	// Status is the HTTP status the provider answered with, or 0 when it was
	// not reached (connection refused, DNS failure, stream cut off).
	Status int
	// Message is the user-facing sentence returned by Error.
	Message string
	// Attempts is how many requests were made before giving up.
	Attempts int
	// Err is the underlying cause, for logs and errors.Is; may be nil.
	Err error
}

// Error returns Message.
func (e *APIError) Error() string { return e.Message }

// Unwrap returns the underlying cause.
func (e *APIError) Unwrap() error { return e.Err }
