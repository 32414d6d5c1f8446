// Package schema holds the pinned copy of the Agent Client Protocol (ACP v1)
// JSON Schema and its method-name map, embedded so that the generator
// (internal/acpgen), the staleness test and the test-support validator
// (acp/schemacheck) all read exactly the same bytes.
//
// schema.json and meta.json are copies of shared/acp/schema.json and
// shared/acp/meta.json. To move to a newer schema, copy both files here and
// run `go generate ./acp`. This package imports nothing but embed.
package schema
