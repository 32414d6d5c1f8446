package acp

import (
	"encoding/json"
	"testing"
)

// TestHelpers checks each constructor's JSON and its validity.
func TestHelpers(t *testing.T) {
	v := mustValidator(t)
	old := "a\n"
	tests := []struct {
		name  string
		def   string
		value any
		want  string
	}{
		{"text", "ContentBlock", TextBlock("hi"), `{"type":"text","text":"hi"}`},
		{"image", "ContentBlock", ImageBlock("image/png", "iVBORw0KGgo="),
			`{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"}`},
		{"tool content", "ToolCallContent", ToolContent(TextBlock("ok")),
			`{"type":"content","content":{"type":"text","text":"ok"}}`},
		{"diff edit", "ToolCallContent", DiffContent("/p/a.go", &old, "b\n"),
			`{"type":"diff","path":"/p/a.go","oldText":"a\n","newText":"b\n"}`},
		{"diff new file", "ToolCallContent", DiffContent("/p/n.go", nil, "x"),
			`{"type":"diff","path":"/p/n.go","newText":"x"}`},
		{"terminal", "ToolCallContent", TerminalContent("term-1"), `{"type":"terminal","terminalId":"term-1"}`},
		{"int id", "RequestId", IntRequestID(7), `7`},
		{"string id", "RequestId", StringRequestID("a<b"), `"a<b"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := json.Marshal(tt.value)
			if err != nil {
				t.Fatal(err)
			}
			if !sameJSON(t, got, []byte(tt.want)) {
				t.Errorf("got %s, want %s", got, tt.want)
			}
			if err := v.Def(tt.def, got); err != nil {
				t.Errorf("invalid %s: %v", tt.def, err)
			}
		})
	}
	if k := TextBlock("x").Kind(); k != "text" {
		t.Errorf("TextBlock Kind() = %q", k)
	}
}

// TestRequestIDsCompareEqual checks that ids built by the helpers equal
// the same ids decoded from the wire, so they can key a pending map.
func TestRequestIDsCompareEqual(t *testing.T) {
	tests := []struct {
		wire string
		id   RequestID
	}{
		{`0`, IntRequestID(0)},
		{` 42 `, IntRequestID(42)},
		{`-1`, IntRequestID(-1)},
		{`"abc"`, StringRequestID("abc")},
		{`"a<b&c"`, StringRequestID("a<b&c")},
		{`null`, RequestID{}},
	}
	for _, tt := range tests {
		var got RequestID
		if err := json.Unmarshal([]byte(tt.wire), &got); err != nil {
			t.Fatalf("%s: %v", tt.wire, err)
		}
		if got != tt.id {
			t.Errorf("%s decoded to %s, helper gave %s", tt.wire, got, tt.id)
		}
	}
	if IntRequestID(1) == StringRequestID("1") {
		t.Error("integer and string ids compare equal")
	}
	id, err := NewRequestID("x")
	if err != nil || id != StringRequestID("x") {
		t.Errorf("NewRequestID(\"x\") = %s, %v", id, err)
	}
	if _, err := NewRequestID(1.5); err == nil {
		t.Error("NewRequestID(1.5) succeeded")
	}
}
