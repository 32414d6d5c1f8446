package schema

import _ "embed"

// JSON is the pinned ACP v1 JSON Schema (draft 2020-12, definitions under
// $defs). Treat it as read-only: it is shared by every caller.
//
//go:embed schema.json
var JSON []byte

// Meta is the pinned meta.json: the protocol version and the method names
// grouped as agentMethods, clientMethods and protocolMethods. Read-only.
//
//go:embed meta.json
var Meta []byte
