package acp

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// TestRequiredArraysMarshalEmpty checks that nil required arrays are
// written as [] (never null or absent), also inside unions.
func TestRequiredArraysMarshalEmpty(t *testing.T) {
	tests := []struct {
		name  string
		value any
		keys  []string
	}{
		{"NewSessionRequest", NewSessionRequest{Cwd: "/p"}, []string{"mcpServers"}},
		{"LoadSessionRequest", LoadSessionRequest{Cwd: "/p", SessionID: "s"}, []string{"mcpServers"}},
		{"ListSessionsResponse", ListSessionsResponse{}, []string{"sessions"}},
		{"PromptRequest", PromptRequest{SessionID: "s"}, []string{"prompt"}},
		{"RequestPermissionRequest", RequestPermissionRequest{SessionID: "s"}, []string{"options"}},
		{"SetSessionConfigOptionResponse", SetSessionConfigOptionResponse{}, []string{"configOptions"}},
		{"Plan", Plan{}, []string{"entries"}},
		{"AvailableCommandsUpdate", AvailableCommandsUpdate{}, []string{"availableCommands"}},
		{"SessionModeState", SessionModeState{}, []string{"availableModes"}},
		{"MCPServerStdio", MCPServerStdio{Name: "x", Command: "/x"}, []string{"args", "env"}},
		{"MCPServerHTTP", MCPServerHTTP{Name: "x", URL: "http://127.0.0.1"}, []string{"headers"}},
		{"stdio in union", MCPServer{Stdio: &MCPServerStdio{}}, []string{"args", "env"}},
		{"sse in union", MCPServer{SSE: &MCPServerSSE{}}, []string{"headers"}},
		{"plan update", SessionUpdate{Plan: &Plan{}}, []string{"entries"}},
		{"select options", SessionConfigSelect{}, []string{"options"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, err := json.Marshal(tt.value)
			if err != nil {
				t.Fatal(err)
			}
			var obj map[string]json.RawMessage
			if err := json.Unmarshal(data, &obj); err != nil {
				t.Fatal(err)
			}
			for _, k := range tt.keys {
				if got := string(obj[k]); got != "[]" {
					t.Errorf("%s = %q in %s, want []", k, got, data)
				}
			}
		})
	}
}

// TestZeroValuesValidate checks that the zero values of the main requests
// and responses, with only their required scalars set, are schema-valid.
func TestZeroValuesValidate(t *testing.T) {
	v := mustValidator(t)
	tests := []struct {
		def   string
		value any
	}{
		{"NewSessionRequest", NewSessionRequest{Cwd: "/p"}},
		{"ListSessionsResponse", ListSessionsResponse{}},
		{"InitializeResponse", InitializeResponse{ProtocolVersion: LatestProtocolVersion}},
		{"InitializeRequest", InitializeRequest{ProtocolVersion: 1}},
		{"LoadSessionResponse", LoadSessionResponse{}},
		{"SetSessionConfigOptionResponse", SetSessionConfigOptionResponse{}},
		{"McpServerStdio", MCPServerStdio{Name: "x", Command: "/x"}},
	}
	for _, tt := range tests {
		data, err := json.Marshal(tt.value)
		if err != nil {
			t.Fatalf("%s: %v", tt.def, err)
		}
		if err := v.Def(tt.def, data); err != nil {
			t.Errorf("%s %s: %v", tt.def, data, err)
		}
	}
}

// TestUnknownFieldsIgnored decodes values with extra members and expects
// the same result as without them.
func TestUnknownFieldsIgnored(t *testing.T) {
	tests := []struct {
		name, plain, extra string
		newValue           func() any
	}{
		{"struct", `{"cwd":"/p","mcpServers":[]}`, `{"cwd":"/p","mcpServers":[],"future":{"x":1}}`,
			func() any { return new(NewSessionRequest) }},
		{"union", `{"type":"text","text":"hi"}`, `{"type":"text","text":"hi","future":true}`,
			func() any { return new(ContentBlock) }},
		{"nested union", `{"sessionId":"s","update":{"sessionUpdate":"plan","entries":[]}}`,
			`{"sessionId":"s","update":{"sessionUpdate":"plan","entries":[],"x":[1]},"y":null}`,
			func() any { return new(SessionNotification) }},
		{"union with base", `{"id":"a","name":"A","type":"boolean","currentValue":true}`,
			`{"id":"a","name":"A","type":"boolean","currentValue":true,"options":[1]}`,
			func() any { return new(SessionConfigOption) }},
		{"untagged variant", `{"name":"n","command":"/c","args":[],"env":[]}`,
			`{"name":"n","command":"/c","args":[],"env":[],"cwd":"/x"}`,
			func() any { return new(MCPServer) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want, got := tt.newValue(), tt.newValue()
			if err := json.Unmarshal([]byte(tt.plain), want); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal([]byte(tt.extra), got); err != nil {
				t.Fatalf("with unknown members: %v", err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("got %+v, want %+v", got, want)
			}
		})
	}
}

// TestUnionDecodeVariants checks how each union picks its variant.
func TestUnionDecodeVariants(t *testing.T) {
	tests := []struct {
		name, in, kind string
		newValue       func() interface{ Kind() string }
	}{
		{"stdio without type", `{"name":"n","command":"/c","args":[],"env":[]}`, "stdio",
			func() interface{ Kind() string } { return new(MCPServer) }},
		{"stdio with type", `{"type":"stdio","name":"n","command":"/c","args":[],"env":[]}`, "stdio",
			func() interface{ Kind() string } { return new(MCPServer) }},
		{"stdio with null type", `{"type":null,"name":"n","command":"/c","args":[],"env":[]}`, "stdio",
			func() interface{ Kind() string } { return new(MCPServer) }},
		{"http", `{"type":"http","name":"n","url":"u","headers":[]}`, "http",
			func() interface{ Kind() string } { return new(MCPServer) }},
		{"agent auth without type", `{"id":"a","name":"A"}`, "agent",
			func() interface{ Kind() string } { return new(AuthMethod) }},
		{"select value without type", `{"sessionId":"s","configId":"c","value":"v"}`, "value_id",
			func() interface{ Kind() string } { return new(SetSessionConfigOptionRequest) }},
		{"boolean value", `{"sessionId":"s","configId":"c","type":"boolean","value":true}`, "boolean",
			func() interface{ Kind() string } { return new(SetSessionConfigOptionRequest) }},
		{"blob resource", `{"uri":"u","blob":"AA=="}`, "BlobResourceContents",
			func() interface{ Kind() string } { return new(EmbeddedResourceResource) }},
		{"titled items", `{"anyOf":[]}`, "titled",
			func() interface{ Kind() string } { return new(MultiSelectItems) }},
		{"other items", `{"type":"integer"}`, "integer",
			func() interface{ Kind() string } { return new(MultiSelectItems) }},
		{"other elicitation action", `{"action":"_later"}`, "_later",
			func() interface{ Kind() string } { return new(CreateElicitationResponse) }},
		{"grouped options", `[{"group":"g","name":"G","options":[]}]`, "Grouped",
			func() interface{ Kind() string } { return new(SessionConfigSelectOptions) }},
		{"empty options", `[]`, "Ungrouped",
			func() interface{ Kind() string } { return new(SessionConfigSelectOptions) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := tt.newValue()
			if err := json.Unmarshal([]byte(tt.in), v); err != nil {
				t.Fatal(err)
			}
			if got := v.Kind(); got != tt.kind {
				t.Errorf("Kind() = %q, want %q", got, tt.kind)
			}
		})
	}
}

// TestStdioTypeDropped checks that a tolerated "type":"stdio" is decoded
// but written back in the schema's untagged form.
func TestStdioTypeDropped(t *testing.T) {
	var s MCPServer
	if err := json.Unmarshal([]byte(`{"type":"stdio","name":"n","command":"/c","args":["a"],"env":[{"name":"K","value":"V"}]}`), &s); err != nil {
		t.Fatal(err)
	}
	if s.Stdio == nil || s.Stdio.Env[0].Value != "V" || s.Stdio.Args[0] != "a" {
		t.Fatalf("decoded %+v", s.Stdio)
	}
	out, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(out), `"type"`) {
		t.Errorf("stdio written with a type: %s", out)
	}
}

// TestUnionDecodeErrors checks the failures of closed unions and raw types.
func TestUnionDecodeErrors(t *testing.T) {
	tests := []struct {
		name, in string
		value    any
		want     error
	}{
		{"unknown content type", `{"type":"video","data":"x"}`, new(ContentBlock), ErrUnknownVariant},
		{"unknown session update", `{"sessionUpdate":"_vendor","x":1}`, new(SessionUpdate), ErrUnknownVariant},
		{"missing discriminator", `{"text":"hi"}`, new(ContentBlock), ErrUnknownVariant},
		{"non-string discriminator", `{"type":5}`, new(ToolCallContent), ErrUnknownVariant},
		{"unknown mcp transport", `{"type":"acp","name":"n","serverId":"x"}`, new(MCPServer), ErrUnknownVariant},
		{"unknown outcome", `{"outcome":"maybe"}`, new(RequestPermissionOutcome), ErrUnknownVariant},
		{"untagged no match", `{"uri":"u"}`, new(EmbeddedResourceResource), ErrUnknownVariant},
		{"options no match", `[{"x":1}]`, new(SessionConfigSelectOptions), ErrUnknownVariant},
		{"request id object", `{"a":1}`, new(RequestID), ErrRawKind},
		{"request id float", `1.5`, new(RequestID), ErrRawKind},
		{"content value object", `{"a":1}`, new(ElicitationContentValue), ErrRawKind},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := json.Unmarshal([]byte(tt.in), tt.value)
			if !errors.Is(err, tt.want) {
				t.Errorf("err = %v, want %v", err, tt.want)
			}
		})
	}
	var b ContentBlock
	if err := json.Unmarshal([]byte(`[1]`), &b); err == nil {
		t.Error("a content block from an array decoded without error")
	}
}

// TestUnionMarshalCount checks that unions with zero or two variants set
// refuse to encode.
func TestUnionMarshalCount(t *testing.T) {
	tests := []struct {
		name  string
		value any
	}{
		{"empty content block", ContentBlock{}},
		{"two content variants", ContentBlock{Text: &TextContent{}, Image: &ImageContent{}}},
		{"empty update", SessionNotification{SessionID: "s"}},
		{"empty outcome", RequestPermissionResponse{}},
		{"option with two", SessionConfigOption{Select: &SessionConfigSelect{}, Boolean: &SessionConfigBoolean{}}},
		{"two option lists", SessionConfigSelectOptions{Ungrouped: []SessionConfigSelectOption{}, Grouped: []SessionConfigSelectGroup{}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := json.Marshal(tt.value); !errors.Is(err, ErrVariantCount) {
				t.Errorf("err = %v, want ErrVariantCount", err)
			}
		})
	}
}

// TestNullLeavesUnionsUnset checks JSON null handling.
func TestNullLeavesUnionsUnset(t *testing.T) {
	var u struct {
		Input *AvailableCommandInput `json:"input"`
		ID    RequestID              `json:"id"`
	}
	if err := json.Unmarshal([]byte(`{"input":null,"id":null}`), &u); err != nil {
		t.Fatal(err)
	}
	if u.Input != nil || u.ID != (RequestID{}) {
		t.Errorf("got %+v", u)
	}
	if got := u.ID.String(); got != "null" {
		t.Errorf("null id String() = %q", got)
	}
}

// TestEnumsKeepUnknownValues checks the lenient enum decoding.
func TestEnumsKeepUnknownValues(t *testing.T) {
	var tc ToolCall
	if err := json.Unmarshal([]byte(`{"toolCallId":"c","title":"t","kind":"teleport","status":"pending"}`), &tc); err != nil {
		t.Fatal(err)
	}
	if tc.Kind != "teleport" || tc.Status != ToolCallStatusPending {
		t.Errorf("got kind %q status %q", tc.Kind, tc.Status)
	}
}
