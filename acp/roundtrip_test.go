package acp

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"companion/acp/schemacheck"
)

// goldenTypes maps each testdata/<Def>.json file to a constructor of the Go
// type for that schema definition.
func goldenTypes() map[string]func() any {
	types := goldenPartTypes()
	for def, f := range goldenMessageTypes() {
		types[def] = f
	}
	return types
}

// goldenPartTypes are the unions and raw types with golden files.
func goldenPartTypes() map[string]func() any {
	return map[string]func() any{
		"AuthMethod":                 func() any { return new(AuthMethod) },
		"AvailableCommandInput":      func() any { return new(AvailableCommandInput) },
		"ContentBlock":               func() any { return new(ContentBlock) },
		"ElicitationContentValue":    func() any { return new(ElicitationContentValue) },
		"ElicitationPropertySchema":  func() any { return new(ElicitationPropertySchema) },
		"EmbeddedResourceResource":   func() any { return new(EmbeddedResourceResource) },
		"Error":                      func() any { return new(Error) },
		"McpServer":                  func() any { return new(MCPServer) },
		"MultiSelectItems":           func() any { return new(MultiSelectItems) },
		"RequestId":                  func() any { return new(RequestID) },
		"RequestPermissionOutcome":   func() any { return new(RequestPermissionOutcome) },
		"SessionConfigOption":        func() any { return new(SessionConfigOption) },
		"SessionConfigSelectOptions": func() any { return new(SessionConfigSelectOptions) },
		"SessionUpdate":              func() any { return new(SessionUpdate) },
		"ToolCallContent":            func() any { return new(ToolCallContent) },
	}
}

// goldenMessageTypes are the params and results with golden files.
func goldenMessageTypes() map[string]func() any {
	return map[string]func() any{
		"AuthenticateRequest":             func() any { return new(AuthenticateRequest) },
		"AuthenticateResponse":            func() any { return new(AuthenticateResponse) },
		"CancelNotification":              func() any { return new(CancelNotification) },
		"CancelRequestNotification":       func() any { return new(CancelRequestNotification) },
		"CloseSessionRequest":             func() any { return new(CloseSessionRequest) },
		"CloseSessionResponse":            func() any { return new(CloseSessionResponse) },
		"CompleteElicitationNotification": func() any { return new(CompleteElicitationNotification) },
		"CreateElicitationRequest":        func() any { return new(CreateElicitationRequest) },
		"CreateElicitationResponse":       func() any { return new(CreateElicitationResponse) },
		"CreateTerminalRequest":           func() any { return new(CreateTerminalRequest) },
		"CreateTerminalResponse":          func() any { return new(CreateTerminalResponse) },
		"DeleteSessionRequest":            func() any { return new(DeleteSessionRequest) },
		"DeleteSessionResponse":           func() any { return new(DeleteSessionResponse) },
		"InitializeRequest":               func() any { return new(InitializeRequest) },
		"InitializeResponse":              func() any { return new(InitializeResponse) },
		"KillTerminalRequest":             func() any { return new(KillTerminalRequest) },
		"KillTerminalResponse":            func() any { return new(KillTerminalResponse) },
		"ListSessionsRequest":             func() any { return new(ListSessionsRequest) },
		"ListSessionsResponse":            func() any { return new(ListSessionsResponse) },
		"LoadSessionRequest":              func() any { return new(LoadSessionRequest) },
		"LoadSessionResponse":             func() any { return new(LoadSessionResponse) },
		"LogoutRequest":                   func() any { return new(LogoutRequest) },
		"LogoutResponse":                  func() any { return new(LogoutResponse) },
		"NewSessionRequest":               func() any { return new(NewSessionRequest) },
		"NewSessionResponse":              func() any { return new(NewSessionResponse) },
		"PromptRequest":                   func() any { return new(PromptRequest) },
		"PromptResponse":                  func() any { return new(PromptResponse) },
		"ReadTextFileRequest":             func() any { return new(ReadTextFileRequest) },
		"ReadTextFileResponse":            func() any { return new(ReadTextFileResponse) },
		"ReleaseTerminalRequest":          func() any { return new(ReleaseTerminalRequest) },
		"ReleaseTerminalResponse":         func() any { return new(ReleaseTerminalResponse) },
		"RequestPermissionRequest":        func() any { return new(RequestPermissionRequest) },
		"RequestPermissionResponse":       func() any { return new(RequestPermissionResponse) },
		"ResumeSessionRequest":            func() any { return new(ResumeSessionRequest) },
		"ResumeSessionResponse":           func() any { return new(ResumeSessionResponse) },
		"SessionNotification":             func() any { return new(SessionNotification) },
		"SetSessionConfigOptionRequest":   func() any { return new(SetSessionConfigOptionRequest) },
		"SetSessionConfigOptionResponse":  func() any { return new(SetSessionConfigOptionResponse) },
		"SetSessionModeRequest":           func() any { return new(SetSessionModeRequest) },
		"SetSessionModeResponse":          func() any { return new(SetSessionModeResponse) },
		"TerminalOutputRequest":           func() any { return new(TerminalOutputRequest) },
		"TerminalOutputResponse":          func() any { return new(TerminalOutputResponse) },
		"WaitForTerminalExitRequest":      func() any { return new(WaitForTerminalExitRequest) },
		"WaitForTerminalExitResponse":     func() any { return new(WaitForTerminalExitResponse) },
		"WriteTextFileRequest":            func() any { return new(WriteTextFileRequest) },
		"WriteTextFileResponse":           func() any { return new(WriteTextFileResponse) },
	}
}

// mustValidator returns the process's schema validator or fails the test.
func mustValidator(t *testing.T) *schemacheck.Validator {
	t.Helper()
	v, err := schemacheck.Shared()
	if err != nil {
		t.Fatalf("schemacheck.Shared: %v", err)
	}
	return v
}

// readGolden returns the examples of testdata/<def>.json.
func readGolden(t *testing.T, def string) []json.RawMessage {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", def+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var examples []json.RawMessage
	if err := json.Unmarshal(data, &examples); err != nil {
		t.Fatalf("%s.json: %v", def, err)
	}
	if len(examples) == 0 {
		t.Fatalf("%s.json has no examples", def)
	}
	return examples
}

// TestGoldenRoundTrip decodes every golden example into its Go type,
// encodes it again and expects the same JSON (compared as values), and
// checks every example against the schema definition it is named after.
func TestGoldenRoundTrip(t *testing.T) {
	v := mustValidator(t)
	for def, newValue := range goldenTypes() {
		t.Run(def, func(t *testing.T) {
			t.Parallel()
			for i, example := range readGolden(t, def) {
				if err := v.Def(def, example); err != nil {
					t.Errorf("example %d is not valid %s: %v", i, def, err)
				}
				value := newValue()
				if err := json.Unmarshal(example, value); err != nil {
					t.Errorf("example %d: unmarshal: %v", i, err)
					continue
				}
				out, err := json.Marshal(value)
				if err != nil {
					t.Errorf("example %d: marshal: %v", i, err)
					continue
				}
				if !sameJSON(t, example, out) {
					t.Errorf("example %d round trip:\n in: %s\nout: %s", i, compactJSON(example), out)
				}
				if err := v.Def(def, out); err != nil {
					t.Errorf("example %d: re-encoded value is not valid %s: %v", i, def, err)
				}
			}
		})
	}
}

// TestGoldenFilesHaveTypes keeps testdata and goldenTypes in step.
func TestGoldenFilesHaveTypes(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	types := goldenTypes()
	for _, f := range files {
		def := strings.TrimSuffix(filepath.Base(f), ".json")
		if _, ok := types[def]; !ok {
			t.Errorf("%s has no entry in goldenTypes", f)
		}
	}
	if len(files) != len(types) {
		t.Errorf("%d golden files for %d types", len(files), len(types))
	}
}

// sameJSON compares two JSON texts as values.
func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	var va, vb any
	if err := json.Unmarshal(a, &va); err != nil {
		t.Fatalf("bad JSON %s: %v", a, err)
	}
	if err := json.Unmarshal(b, &vb); err != nil {
		t.Fatalf("bad JSON %s: %v", b, err)
	}
	return reflect.DeepEqual(va, vb)
}

// compactJSON renders JSON on one line for messages.
func compactJSON(data []byte) string {
	var b bytes.Buffer
	if err := json.Compact(&b, data); err != nil {
		return string(data)
	}
	return b.String()
}

// TestGoldenCoverage checks that the golden files use every discriminator
// value of every tagged union in the schema, and have an example for every
// definition that carries a method's params or result.
func TestGoldenCoverage(t *testing.T) {
	seen := map[string]bool{} // "key=value" pairs found in the golden files
	types := goldenTypes()
	for def := range types {
		for _, ex := range readGolden(t, def) {
			var v any
			if err := json.Unmarshal(ex, &v); err != nil {
				t.Fatal(err)
			}
			collectPairs(v, seen)
		}
	}
	for _, want := range schemaTags(t) {
		if !seen[want] {
			t.Errorf("no golden example has %s", want)
		}
	}
	for _, def := range methodDefs(t) {
		if _, ok := types[def]; !ok {
			t.Errorf("no golden file for method definition %s", def)
		}
	}
}

// collectPairs records every string member as "key=value".
func collectPairs(v any, seen map[string]bool) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if s, ok := x.(string); ok {
				seen[k+"="+s] = true
			}
			collectPairs(x, seen)
		}
	case []any:
		for _, x := range v {
			collectPairs(x, seen)
		}
	}
}

// schemaNode is the part of a schema definition the coverage test reads.
type schemaNode struct {
	XMethod    string                `json:"x-method"`
	Properties map[string]schemaNode `json:"properties"`
	Const      any                   `json:"const"`
	OneOf      []schemaNode          `json:"oneOf"`
	AnyOf      []schemaNode          `json:"anyOf"`
}

// readSchemaDefs reads the pinned schema's definitions.
func readSchemaDefs(t *testing.T) map[string]schemaNode {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("schema", "schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Defs map[string]schemaNode `json:"$defs"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Defs
}

// schemaTags lists "key=value" for every const string property of every
// top-level union branch in the schema (the discriminator values).
func schemaTags(t *testing.T) []string {
	var out []string
	for _, d := range readSchemaDefs(t) {
		for _, b := range append(append([]schemaNode(nil), d.OneOf...), d.AnyOf...) {
			for key, p := range b.Properties {
				if s, ok := p.Const.(string); ok {
					out = append(out, key+"="+s)
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// methodDefs lists the definitions that carry an x-method.
func methodDefs(t *testing.T) []string {
	var out []string
	for name, d := range readSchemaDefs(t) {
		if d.XMethod != "" {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}
