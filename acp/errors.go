package acp

import "errors"

// Sentinel errors of the package. Callers test them with errors.Is; the
// returned errors name the type and value at fault around them.
var (
	// ErrUnknownVariant means a union's JSON names a variant the pinned
	// schema does not have (an unknown "type", "sessionUpdate", ...), or
	// fits none of an untagged union's variants.
	ErrUnknownVariant = errors.New("unknown union variant")
	// ErrVariantCount means a union value to encode has no variant set, or
	// more than one.
	ErrVariantCount = errors.New("union must have exactly one variant set")
	// ErrRawKind means a JSON value is not of a kind the type accepts, such
	// as a RequestID that is neither an integer, a string nor null.
	ErrRawKind = errors.New("JSON value of the wrong kind")
)
