// Package tools is the tool core: the Tool interface and Define, which
// makes a Tool from a name, an embedded description, a kind and a typed
// Prepare; the Env a call runs in; the registry; argument binding (Bind,
// BindValues for arguments a provider has already decoded, SchemaFor); path
// confinement (Roots) and confined local file access; confirmations; and a
// session's background jobs. It knows no wire protocol:
// what it needs from the editor (files, terminals) it declares as narrow
// interfaces that front ends implement.
//
// The built-in tools live in tools/builtin, MCP tools in tools/mcp and the
// permission policy in tools/policy; all of them import this package, which
// imports nothing else of companion.
package tools
