package acpgen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// node is the subset of a JSON Schema object that the ACP schema uses.
type node struct {
	Ref                  string          `json:"$ref"`
	Type                 typeList        `json:"type"`
	Title                string          `json:"title"`
	Description          string          `json:"description"`
	Const                json.RawMessage `json:"const"`
	Default              json.RawMessage `json:"default"`
	Properties           ordered[*node]  `json:"properties"`
	Required             []string        `json:"required"`
	Items                *node           `json:"items"`
	AdditionalProperties json.RawMessage `json:"additionalProperties"`
	AllOf                []*node         `json:"allOf"`
	AnyOf                []*node         `json:"anyOf"`
	OneOf                []*node         `json:"oneOf"`
	Not                  *node           `json:"not"`
	XMethod              string          `json:"x-method"`
	XSide                string          `json:"x-side"`
	XDocsIgnore          bool            `json:"x-docs-ignore"`
}

// document is the top level of the schema file.
type document struct {
	ID       string         `json:"$id"`
	Version  string         `json:"version"`
	XVersion string         `json:"x-sdk-version"`
	Defs     ordered[*node] `json:"$defs"`
}

// metaFile is meta.json: the protocol version and method names by group.
type metaFile struct {
	Version         int             `json:"version"`
	AgentMethods    ordered[string] `json:"agentMethods"`
	ClientMethods   ordered[string] `json:"clientMethods"`
	ProtocolMethods ordered[string] `json:"protocolMethods"`
}

// typeList is a schema "type": one name or a list of names.
type typeList []string

// UnmarshalJSON accepts both "string" and ["string", "null"].
func (t *typeList) UnmarshalJSON(data []byte) error {
	if len(data) > 0 && data[0] == '"' {
		var s string
		if err := json.Unmarshal(data, &s); err != nil {
			return err
		}
		*t = typeList{s}
		return nil
	}
	var list []string
	if err := json.Unmarshal(data, &list); err != nil {
		return err
	}
	*t = list
	return nil
}

// has reports whether name is one of the listed types.
func (t typeList) has(name string) bool {
	for _, s := range t {
		if s == name {
			return true
		}
	}
	return false
}

// primary is the first listed type that is not "null".
func (t typeList) primary() string {
	for _, s := range t {
		if s != "null" {
			return s
		}
	}
	return ""
}

// ordered is a JSON object decoded with its key order kept, so generated
// code follows the schema's order.
type ordered[T any] struct {
	keys []string
	vals map[string]T
}

// UnmarshalJSON reads the object member by member.
func (o *ordered[T]) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return fmt.Errorf("want an object, got %v: %w", tok, ErrSchema)
	}
	o.vals = map[string]T{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		key, _ := tok.(string)
		var v T
		if err := dec.Decode(&v); err != nil {
			return fmt.Errorf("%s: %w", key, err)
		}
		if _, dup := o.vals[key]; !dup {
			o.keys = append(o.keys, key)
		}
		o.vals[key] = v
	}
	return nil
}

// get returns the member named key.
func (o ordered[T]) get(key string) (T, bool) {
	v, ok := o.vals[key]
	return v, ok
}

// refName is the $defs name a "#/$defs/Name" reference points at.
func refName(ref string) string {
	return strings.TrimPrefix(ref, "#/$defs/")
}

// singleRef returns the definition a property refers to, looking through
// {"$ref"}, {"allOf": [{"$ref"}]} and {"anyOf": [{"$ref"}, {"type": "null"}]}.
// nullable reports the last form.
func (n *node) singleRef() (name string, nullable bool) {
	switch {
	case n.Ref != "":
		return refName(n.Ref), false
	case len(n.AllOf) == 1 && n.AllOf[0].Ref != "":
		return refName(n.AllOf[0].Ref), false
	case len(n.AnyOf) == 2 && n.AnyOf[0].Ref != "" && n.AnyOf[1].Type.has("null"):
		return refName(n.AnyOf[0].Ref), true
	}
	return "", false
}

// constString returns the node's const value when it is a string.
func (n *node) constString() (string, bool) {
	if len(n.Const) == 0 || n.Const[0] != '"' {
		return "", false
	}
	var s string
	if err := json.Unmarshal(n.Const, &s); err != nil {
		return "", false
	}
	return s, true
}

// isRequired reports whether the object node lists key as required.
func (n *node) isRequired(key string) bool {
	for _, r := range n.Required {
		if r == key {
			return true
		}
	}
	return false
}

// defaultIsFalse reports a boolean whose default is false.
func (n *node) defaultIsFalse() bool {
	return string(n.Default) == "false"
}

// parseInputs decodes the schema and meta files.
func parseInputs(schema, meta []byte) (*document, *metaFile, error) {
	var doc document
	if err := json.Unmarshal(schema, &doc); err != nil {
		return nil, nil, fmt.Errorf("schema: %w: %w", ErrSchema, err)
	}
	if len(doc.Defs.keys) == 0 {
		return nil, nil, fmt.Errorf("schema has no $defs: %w", ErrSchema)
	}
	var m metaFile
	if err := json.Unmarshal(meta, &m); err != nil {
		return nil, nil, fmt.Errorf("meta: %w: %w", ErrSchema, err)
	}
	if m.Version == 0 {
		return nil, nil, fmt.Errorf("meta.json has no protocol version: %w", ErrSchema)
	}
	return &doc, &m, nil
}
