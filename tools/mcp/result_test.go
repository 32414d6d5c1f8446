package mcp

import (
	"encoding/base64"
	"encoding/json"
	"reflect"
	"testing"

	"companion/tools"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

func TestConvertResult(t *testing.T) {
	b64 := base64.StdEncoding.EncodeToString
	tests := []struct {
		name string
		res  mcpgo.CallToolResult
		want tools.Result
	}{
		{name: "text", res: mcpgo.CallToolResult{Content: []mcpgo.Content{mcpgo.NewTextContent("a"), mcpgo.NewTextContent("b")}},
			want: tools.Result{Text: "a\nb"}},
		{name: "error", res: mcpgo.CallToolResult{Content: []mcpgo.Content{mcpgo.NewTextContent("bad")}, IsError: true},
			want: tools.Result{Text: "bad", IsError: true}},
		{name: "empty", want: tools.Result{Text: "(the tool returned no content)"}},
		{name: "image", res: mcpgo.CallToolResult{Content: []mcpgo.Content{mcpgo.NewImageContent(b64(pixelPNG), "image/png")}},
			want: tools.Result{Text: "[image: image/png, 70 bytes]", Images: []tools.Image{{MIMEType: "image/png", Data: pixelPNG}}}},
		{name: "audio", res: mcpgo.CallToolResult{Content: []mcpgo.Content{mcpgo.NewAudioContent(b64([]byte("RIFF")), "audio/wav")}},
			want: tools.Result{Text: "[audio: audio/wav, 4 bytes]", Images: []tools.Image{{MIMEType: "audio/wav", Data: []byte("RIFF")}}}},
		{name: "bad base64", res: mcpgo.CallToolResult{Content: []mcpgo.Content{mcpgo.NewImageContent("!!", "image/png")}},
			want: tools.Result{Text: "[image (image/png) with invalid base64 data]"}},
		{name: "embedded text", res: mcpgo.CallToolResult{Content: []mcpgo.Content{mcpgo.NewEmbeddedResource(
			mcpgo.TextResourceContents{URI: "file:///a.txt", Text: "hello"})}},
			want: tools.Result{Text: "[resource file:///a.txt]\nhello"}},
		{name: "embedded image blob", res: mcpgo.CallToolResult{Content: []mcpgo.Content{mcpgo.NewEmbeddedResource(
			mcpgo.BlobResourceContents{URI: "x://p", MIMEType: "image/png", Blob: b64(pixelPNG)})}},
			want: tools.Result{Text: "[resource x://p]\n[image: image/png, 70 bytes]", Images: []tools.Image{{MIMEType: "image/png", Data: pixelPNG}}}},
		{name: "embedded other blob", res: mcpgo.CallToolResult{Content: []mcpgo.Content{mcpgo.NewEmbeddedResource(
			mcpgo.BlobResourceContents{URI: "x://z", MIMEType: "application/gzip", Blob: b64([]byte("abc"))})}},
			want: tools.Result{Text: "[resource x://z]\n[binary data (application/gzip, 3 bytes) not shown]"}},
		{name: "resource link", res: mcpgo.CallToolResult{Content: []mcpgo.Content{mcpgo.NewResourceLink("x://doc", "doc", "A document", "text/plain")}},
			want: tools.Result{Text: "[resource link: x://doc name=doc type=text/plain] A document"}},
		{name: "structured appended", res: mcpgo.CallToolResult{Content: []mcpgo.Content{mcpgo.NewTextContent("see below")},
			StructuredContent: map[string]any{"t": 1}},
			want: tools.Result{Text: "see below\nStructured content:\n{\"t\":1}", Raw: map[string]any{"t": 1}}},
		{name: "structured already in text", res: mcpgo.CallToolResult{Content: []mcpgo.Content{mcpgo.NewTextContent("{\n  \"t\": 1\n}")},
			StructuredContent: map[string]any{"t": 1}},
			want: tools.Result{Text: "{\n  \"t\": 1\n}", Raw: map[string]any{"t": 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := convertResult(&tt.res)
			if !reflect.DeepEqual(*got, tt.want) {
				t.Fatalf("convertResult =\n%+v\nwant\n%+v", *got, tt.want)
			}
		})
	}
}

func TestConvertResultFromWire(t *testing.T) {
	// A result as a server sends it, parsed the way the client parses it.
	wire := `{"content":[{"type":"text","text":"hi"},{"type":"resource","resource":{"uri":"a://b","text":"t"}}],
		"structuredContent":{"ok":true},"isError":false}`
	res, err := mcpgo.ParseCallToolResult(ptr(json.RawMessage(wire)))
	if err != nil {
		t.Fatal(err)
	}
	got := convertResult(res)
	if got.Text != "hi\n[resource a://b]\nt\nStructured content:\n{\"ok\":true}" || got.IsError {
		t.Errorf("convertResult = %+v", got)
	}
}

func ptr[T any](v T) *T { return &v }

func TestRenderMessages(t *testing.T) {
	msgs := []mcpgo.PromptMessage{
		mcpgo.NewPromptMessage(mcpgo.RoleUser, mcpgo.NewTextContent("Review this")),
		mcpgo.NewPromptMessage(mcpgo.RoleUser, mcpgo.NewEmbeddedResource(mcpgo.TextResourceContents{URI: "file:///a.go", Text: "package a"})),
		mcpgo.NewPromptMessage(mcpgo.RoleAssistant, mcpgo.NewTextContent("Sure.")),
	}
	want := "Review this\n\n[resource file:///a.go]\npackage a\n\n[assistant]\nSure."
	if got := renderMessages(msgs); got != want {
		t.Errorf("renderMessages = %q, want %q", got, want)
	}
}
