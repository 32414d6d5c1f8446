// Package acpgen generates companion's ACP Go types from the pinned ACP v1
// JSON Schema (acp/schema). It owns the mapping from schema to Go: the
// rename table that makes names read as Go (SessionId → SessionID), which
// fields are pointers or omitted, and how unions are encoded.
//
// It is a small, stdlib-only generator run by `go generate ./acp` through
// cmd/acpgen; acp's staleness test calls Generate in memory. It imports
// only the standard library. The generated code relies on unexported
// helpers in acp/codec.go (joinMembers, decodeVariant, ...) and the
// sentinels in acp/errors.go.
//
// Mapping in brief:
//   - object definitions become structs; x-docs-ignore envelopes and the
//     free-form Ext* definitions are skipped;
//   - string/integer definitions become named types, const lists become
//     enums (open when the schema allows any other string);
//   - untagged unions of primitives (RequestId) become comparable structs
//     holding compact JSON;
//   - object unions become structs with one pointer per variant and
//     MarshalJSON/UnmarshalJSON that flatten the variant beside its tag.
package acpgen
