package acpgen

import (
	"bytes"
	"errors"
	"regexp"
	"strings"
	"testing"

	"companion/acp/schema"
)

func TestGoName(t *testing.T) {
	tests := []struct{ in, want string }{
		{"SessionId", "SessionID"},
		{"sessionId", "SessionID"},
		{"ToolCallId", "ToolCallID"},
		{"TerminalId", "TerminalID"},
		{"McpServerHttp", "MCPServerHTTP"},
		{"McpServerSse", "MCPServerSSE"},
		{"HttpHeader", "HTTPHeader"},
		{"ElicitationUrlMode", "ElicitationURLMode"},
		{"uri", "URI"},
		{"mimeType", "MIMEType"},
		{"_meta", "Meta"},
		{"agent_message_chunk", "AgentMessageChunk"},
		{"date-time", "DateTime"},
		{"value_id", "ValueID"},
		{"Parse error", "ParseError"},
		{"session_request_permission", "SessionRequestPermission"},
		{"fs_read_text_file", "FsReadTextFile"},
		{"HTTPServer", "HTTPServer"},
		{"jsonrpc", "JSONRPC"},
		{"Invalid", "Invalid"},
	}
	for _, tt := range tests {
		if got := goName(tt.in); got != tt.want {
			t.Errorf("goName(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestGeneratePinnedSchema runs the generator on the real schema: the
// output is deterministic, starts with a Go "generated" line naming the
// protocol version, and has the expected files.
func TestGeneratePinnedSchema(t *testing.T) {
	first, err := Generate(schema.JSON, schema.Meta)
	if err != nil {
		t.Fatal(err)
	}
	second, err := Generate(schema.JSON, schema.Meta)
	if err != nil {
		t.Fatal(err)
	}
	generated := regexp.MustCompile(`^// Code generated .* DO NOT EDIT\.$`)
	for _, name := range []string{TypesFile, UnionsFile, MethodsFile, DispatchFile} {
		src, ok := first[name]
		if !ok {
			t.Fatalf("no %s", name)
		}
		if !bytes.Equal(src, second[name]) {
			t.Errorf("%s differs between runs", name)
		}
		line, _, _ := strings.Cut(string(src), "\n")
		if !generated.MatchString(line) || !strings.Contains(line, "protocol version 1") {
			t.Errorf("%s first line %q", name, line)
		}
	}
	if len(first) != 4 {
		t.Errorf("%d files", len(first))
	}
	for _, want := range []string{
		"MethodSessionUpdate = \"session/update\"",
		"MethodCancelRequest = \"$/cancel_request\"",
		"MethodFsReadTextFile = \"fs/read_text_file\"",
	} {
		if !bytes.Contains(first[MethodsFile], []byte(want)) {
			t.Errorf("methods file lacks %s", want)
		}
	}
	// Every agent method has a handler method and a registration; every
	// client method a typed call.
	for _, want := range []string{
		"SessionPrompt(ctx context.Context, conn *rpc.Conn, p *PromptRequest) (*PromptResponse, error)",
		"SessionCancel(ctx context.Context, conn *rpc.Conn, p *CancelNotification)\n",
		"guarded(m, MethodSessionPrompt, guard, h.SessionPrompt)",
		"rpc.HandleNotification(m, MethodSessionCancel, h.SessionCancel)",
		"func (c clientMethods) FsReadTextFile(ctx context.Context, p *ReadTextFileRequest) (*ReadTextFileResponse, error)",
		"func (c clientMethods) SessionUpdate(ctx context.Context, p *SessionNotification) error",
	} {
		if !bytes.Contains(first[DispatchFile], []byte(want)) {
			t.Errorf("dispatch file lacks %s", want)
		}
	}
}

const smallMeta = `{"version": 1, "agentMethods": {"thing_do": "thing/do"}, "clientMethods": {}, "protocolMethods": {}}`

// smallSchema exercises each kind of definition once.
const smallSchema = `{"$id": "urn:test:1", "$defs": {
  "Envelope": {"type": "object", "x-docs-ignore": true},
  "ThingId": {"type": "string", "description": "Identifies a thing"},
  "Color": {"oneOf": [{"type": "string", "const": "dark_red", "description": "Red."}, {"type": "string", "const": "blue"}]},
  "Mood": {"anyOf": [{"type": "string", "const": "calm"}, {"title": "other", "type": "string"}]},
  "Id": {"anyOf": [{"type": "null"}, {"type": "integer"}, {"type": "string"}]},
  "Item": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]},
  "DoThingRequest": {"type": "object", "x-side": "agent", "x-method": "thing/do",
    "properties": {
      "thingId": {"allOf": [{"$ref": "#/$defs/ThingId"}]},
      "items": {"type": "array", "items": {"$ref": "#/$defs/Item"}},
      "tags": {"type": ["array", "null"], "items": {"type": "string"}},
      "count": {"type": ["integer", "null"]},
      "flag": {"type": "boolean", "default": false},
      "maybe": {"type": ["boolean", "null"]},
      "color": {"anyOf": [{"$ref": "#/$defs/Color"}, {"type": "null"}]},
      "item": {"anyOf": [{"$ref": "#/$defs/Item"}, {"type": "null"}]},
      "raw": {},
      "_meta": {"type": ["object", "null"]}},
    "required": ["thingId", "items"]},
  "Shape": {"oneOf": [
    {"type": "object", "properties": {"kind": {"type": "string", "const": "box"}}, "required": ["kind"], "allOf": [{"$ref": "#/$defs/Item"}]},
    {"type": "object", "properties": {"kind": {"type": "string", "const": "dot"}, "size": {"type": "integer"}}, "required": ["kind", "size"]},
    {"title": "plain", "allOf": [{"$ref": "#/$defs/Item"}]}]}
}}`

// TestGenerateSmallSchema checks the mapping rules on a tiny schema.
func TestGenerateSmallSchema(t *testing.T) {
	files, err := Generate([]byte(smallSchema), []byte(smallMeta))
	if err != nil {
		t.Fatal(err)
	}
	// gofmt aligns fields, so compare with every run of white space as one.
	squash := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	all := squash(string(files[TypesFile]) + string(files[UnionsFile]) + string(files[MethodsFile]) + string(files[DispatchFile]))
	for _, want := range []string{
		"(protocol version 1, urn:test:1); DO NOT EDIT.",
		"type ThingID string",
		"// Identifies a thing.",
		"ColorDarkRed Color = \"dark_red\"",
		"The list of values is open",
		"type ID struct {\n\traw string\n}",
		"jsonNull|jsonInteger|jsonString",
		"ThingID ThingID `json:\"thingId\"`",
		"Items []Item `json:\"items\"`",
		"p.Items = []Item{}",
		"Tags []string `json:\"tags,omitzero\"`",
		"Count *int `json:\"count,omitempty\"`",
		"Flag bool `json:\"flag,omitempty\"`",
		"Maybe *bool `json:\"maybe,omitempty\"`",
		"Color Color `json:\"color,omitempty\"`",
		"Item *Item `json:\"item,omitempty\"`",
		"Raw json.RawMessage `json:\"raw,omitempty\"`",
		"Meta map[string]any `json:\"_meta,omitempty\"`",
		"Box *Item `json:\"-\"`",
		"Dot *ShapeDot `json:\"-\"`",
		"type ShapeDot struct {",
		"Size int `json:\"size\"`",
		"case !tagged || tag == \"plain\":",
		"return joinMembers(\"kind\", tag, v)",
		"MethodThingDo = \"thing/do\"",
		"params DoThingRequest",
		"ThingDo(ctx context.Context, conn *rpc.Conn, p *DoThingRequest)",
	} {
		if !strings.Contains(all, squash(want)) {
			t.Errorf("output lacks %q", want)
		}
	}
	if strings.Contains(all, "Envelope") {
		t.Error("x-docs-ignore definition was generated")
	}
}

// TestGenerateErrors checks that bad input fails with the right sentinel.
func TestGenerateErrors(t *testing.T) {
	tests := []struct {
		name, schema, meta string
		want               error
	}{
		{"bad json", `{`, smallMeta, ErrSchema},
		{"no defs", `{"$defs": {}}`, smallMeta, ErrSchema},
		{"bad meta", smallSchema, `[]`, ErrSchema},
		{"no version", smallSchema, `{"agentMethods": {}}`, ErrSchema},
		{"clash", `{"$defs": {"FooId": {"type": "string"}, "FooID": {"type": "string"}}}`, smallMeta, ErrNameClash},
		{"ref to skipped", `{"$defs": {"Ext": {}, "A": {"type": "object", "properties": {"x": {"$ref": "#/$defs/Ext"}}}}}`, smallMeta, ErrUnsupported},
		{"array of arrays", `{"$defs": {"A": {"type": "object", "properties": {"x": {"type": "array", "items": {"type": "array"}}}}}}`, smallMeta, ErrUnsupported},
		{"variant clash", `{"$defs": {"I": {"type": "object"}, "U": {"type": "object", "properties": {"box": {"type": "string"}},
			"oneOf": [{"type": "object", "properties": {"t": {"const": "box"}}, "allOf": [{"$ref": "#/$defs/I"}]}]}}}`, smallMeta, ErrNameClash},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := Generate([]byte(tt.schema), []byte(tt.meta)); !errors.Is(err, tt.want) {
				t.Errorf("err = %v, want %v", err, tt.want)
			}
		})
	}
}

func TestFirstParagraph(t *testing.T) {
	tests := []struct{ in, want string }{
		{"One line", "One line."},
		{"First\nline.\n\nSecond paragraph.", "First line."},
		{"Ends with colon:", "Ends with colon:"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := firstParagraph(tt.in); got != tt.want {
			t.Errorf("firstParagraph(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
