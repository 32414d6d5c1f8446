package schemacheck

import "errors"

// Sentinel errors of the package. Returned errors wrap one of them with
// the message, method or definition at fault; schema violations also wrap
// the *jsonschema.ValidationError with the details.
var (
	// ErrInvalid means a value does not validate against its definition.
	ErrInvalid = errors.New("does not match the ACP schema")
	// ErrEnvelope means a line is not a well-formed JSON-RPC 2.0 message as
	// ACP uses it (jsonrpc "2.0", result XOR error, a notification method
	// sent as a request, ...).
	ErrEnvelope = errors.New("malformed JSON-RPC message")
	// ErrUnknownMethod means a method the schema does not define for that
	// direction (extension methods starting with "_" are always allowed).
	ErrUnknownMethod = errors.New("unknown ACP method for this direction")
	// ErrUnmatchedResponse means a response whose id matches no request
	// sent the other way (or a request id used twice while pending).
	ErrUnmatchedResponse = errors.New("response matches no pending request")
	// ErrUnknownDef means a $defs name the schema does not have.
	ErrUnknownDef = errors.New("unknown schema definition")
)
