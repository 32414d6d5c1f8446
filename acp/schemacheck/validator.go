package schemacheck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"companion/acp/schema"
)

// schemaURL names the embedded schema inside the compiler; nothing is
// fetched from it.
const schemaURL = "urn:companion:acp:schema.json"

// Validator checks JSON against the embedded ACP schema. Build it once with
// New; it holds only compiled, read-only data and is safe for concurrent
// use.
type Validator struct {
	defs    map[string]*jsonschema.Schema
	methods map[methodKey]methodDefs
	// required lists each definition's required properties, to tell which
	// results may be JSON null (see Message).
	required map[string]int
}

// methodKey identifies a method by the side that handles it.
type methodKey struct{ side, method string }

// methodDefs names the definitions of a method's params and result; result
// is "" for notifications.
type methodDefs struct{ params, result string }

// rawDef is what New reads of each definition besides compiling it.
type rawDef struct {
	XMethod  string   `json:"x-method"`
	XSide    string   `json:"x-side"`
	Required []string `json:"required"`
}

// Shared is the one Validator of the process, compiled on first use:
// compiling the schema costs far more than checking a message (it was a
// fifth of the e2e tests' own CPU when each test editor compiled its own),
// and a Validator is read-only, so every test can use this one.
var Shared = sync.OnceValues(New)

// New compiles every definition of the embedded schema (draft 2020-12) and
// indexes the methods by their x-method and x-side annotations: a
// definition named ...Response is the method's result, the other its params.
func New() (*Validator, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema.JSON))
	if err != nil {
		return nil, fmt.Errorf("schemacheck: parse schema: %w", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, fmt.Errorf("schemacheck: add schema: %w", err)
	}
	var top struct {
		Defs map[string]rawDef `json:"$defs"`
	}
	if err := json.Unmarshal(schema.JSON, &top); err != nil {
		return nil, fmt.Errorf("schemacheck: parse schema: %w", err)
	}
	v := &Validator{
		defs:     make(map[string]*jsonschema.Schema, len(top.Defs)),
		methods:  map[methodKey]methodDefs{},
		required: make(map[string]int, len(top.Defs)),
	}
	for name, d := range top.Defs {
		sch, err := c.Compile(schemaURL + "#/$defs/" + name)
		if err != nil {
			return nil, fmt.Errorf("schemacheck: compile %s: %w", name, err)
		}
		v.defs[name] = sch
		v.required[name] = len(d.Required)
		if d.XMethod != "" {
			v.index(name, d)
		}
	}
	return v, nil
}

// index records a definition as a method's params or result.
func (v *Validator) index(name string, d rawDef) {
	key := methodKey{d.XSide, d.XMethod}
	md := v.methods[key]
	if strings.HasSuffix(name, "Response") {
		md.result = name
	} else {
		md.params = name
	}
	v.methods[key] = md
}

// Def validates the JSON value data against #/$defs/name. The error wraps
// ErrInvalid and the *jsonschema.ValidationError, or ErrUnknownDef.
func (v *Validator) Def(name string, data []byte) error {
	sch, ok := v.defs[name]
	if !ok {
		return fmt.Errorf("schemacheck: %q: %w", name, ErrUnknownDef)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("schemacheck: %s: not JSON: %w: %w", name, ErrInvalid, err)
	}
	if err := sch.Validate(inst); err != nil {
		return fmt.Errorf("schemacheck: %s: %w: %w", name, ErrInvalid, err)
	}
	return nil
}

// MethodDefs returns the definitions of a method's params and result (""
// for a notification) as seen by a message traveling in dir: a request
// traveling ToAgent is one the agent handles (x-side "agent"), ToClient one
// the client handles; "protocol" methods travel both ways. ok is false for
// a method the schema does not define for that direction.
func (v *Validator) MethodDefs(dir Direction, method string) (params, result string, ok bool) {
	for _, side := range []string{dir.side(), "protocol"} {
		if md, found := v.methods[methodKey{side, method}]; found && md.params != "" {
			return md.params, md.result, true
		}
	}
	return "", "", false
}
