package builtin

import (
	"bytes"
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"

	"companion/internal/testkit/testio"
	"companion/tools"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// toolSchema is the part of a tool's schema the agreement test reads.
type toolSchema struct {
	Type       string `json:"type"`
	Required   []string
	Properties map[string]struct {
		Type        string   `json:"type"`
		Description string   `json:"description"`
		Minimum     *float64 `json:"minimum"`
	}
}

// sampleValue returns a valid value for a property of JSON type typ.
func sampleValue(typ string, minimum *float64) any {
	switch typ {
	case "integer":
		if minimum != nil {
			return int(*minimum)
		}
		return 1
	case "number":
		return 1.5
	case "boolean":
		return true
	case "array":
		return []string{"*.tmp"}
	}
	return "sample"
}

// wrongValue returns a value of another JSON type than typ.
func wrongValue(typ string) any {
	if typ == "string" {
		return 12
	}
	return "12"
}

// TestSchemasAgreeWithBind checks, for every tool, that arguments its JSON
// Schema accepts pass Prepare, and that arguments Bind rejects (a missing
// required parameter, a wrong type, a value under the minimum) are ones the
// schema rejects too.
func TestSchemasAgreeWithBind(t *testing.T) {
	env := newEnv(t, testio.RealTempDir(t))
	for _, tool := range ReadOnly(ReadOnlyOptions{}) {
		t.Run(tool.Name(), func(t *testing.T) {
			var s toolSchema
			if err := json.Unmarshal(tool.Schema(), &s); err != nil || s.Type != "object" {
				t.Fatalf("schema %s: %v", tool.Schema(), err)
			}
			if strings.TrimSpace(tool.Description()) == "" {
				t.Error("empty description")
			}
			validate := compileSchema(t, tool.Schema())
			agree := func(label string, args map[string]any, wantOK bool) {
				t.Helper()
				raw := mustJSON(t, args)
				schemaErr := validate(raw)
				_, err := tool.Prepare(env, json.RawMessage(raw))
				if wantOK && (schemaErr != nil || err != nil) {
					t.Errorf("%s %s: schema says %v, Prepare says %v; want both to accept", label, raw, schemaErr, err)
				}
				if !wantOK && (schemaErr == nil || !errors.Is(err, tools.ErrInvalidArgs)) {
					t.Errorf("%s %s: schema says %v, Prepare says %v; want both to reject", label, raw, schemaErr, err)
				}
			}
			full, minimal := map[string]any{}, map[string]any{}
			for name, p := range s.Properties {
				if p.Description == "" {
					t.Errorf("parameter %q has no description", name)
				}
				full[name] = sampleValue(p.Type, p.Minimum)
				if slices.Contains(s.Required, name) {
					minimal[name] = full[name]
				}
			}
			agree("all parameters", full, true)
			agree("required parameters only", minimal, true)
			for _, name := range s.Required {
				args := maps.Clone(full)
				delete(args, name)
				agree("without "+name, args, false)
			}
			for name, p := range s.Properties {
				args := maps.Clone(full)
				args[name] = wrongValue(p.Type)
				agree("wrong type for "+name, args, false)
				if p.Minimum != nil {
					args[name] = int(*p.Minimum) - 1
					agree("below minimum for "+name, args, false)
				}
			}
		})
	}
}

// compileSchema compiles a tool's schema and returns a validator of JSON text.
func compileSchema(t *testing.T, schema json.RawMessage) func(string) error {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("tool.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("tool.json")
	if err != nil {
		t.Fatalf("schema does not compile: %v", err)
	}
	return func(args string) error {
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(args))
		if err != nil {
			return err
		}
		return sch.Validate(v)
	}
}
