// Package schemacheck validates ACP JSON against the pinned ACP v1 schema
// (acp/schema), for tests: golden files, conformance transcripts and the
// end-to-end runs that feed every line of both directions through it.
//
// It is an ordinary package (not a _test file) so that tests in any package
// can use it. Shared is the process's one Validator, compiled once (New
// compiles another); a Validator is safe for concurrent use. Def checks a
// value against one #/$defs entry; Message checks a whole JSON-RPC message
// line, choosing the params or result definition from the method's
// x-method / x-side annotations; a Stream remembers which method each
// request id had so that responses are checked against the right result
// definition.
//
// It imports acp/schema and github.com/santhosh-tekuri/jsonschema/v6, never
// acp itself, so acp's own tests can use it.
package schemacheck
