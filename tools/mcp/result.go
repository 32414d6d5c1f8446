package mcp

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	"companion/tools"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// resultBuilder collects a result's text parts and media.
type resultBuilder struct {
	parts  []string
	images []tools.Image
}

// convertResult maps a tool result to what the model reads: text as is,
// images (and audio) as media with a note, embedded resources as their text
// or media, resource links as text, structured content as JSON text.
func convertResult(res *mcpgo.CallToolResult) *tools.Result {
	var b resultBuilder
	for _, c := range res.Content {
		b.content(c)
	}
	b.structured(res)
	text := strings.Join(b.parts, "\n")
	if text == "" && len(b.images) == 0 {
		text = "(the tool returned no content)"
	}
	out := &tools.Result{Text: text, Images: b.images, IsError: res.IsError}
	if res.StructuredContent != nil {
		out.Raw = res.StructuredContent
	}
	return out
}

// content adds one content block.
func (b *resultBuilder) content(c mcpgo.Content) {
	switch v := c.(type) {
	case mcpgo.TextContent:
		b.parts = append(b.parts, v.Text)
	case *mcpgo.TextContent:
		b.parts = append(b.parts, v.Text)
	case mcpgo.ImageContent:
		b.media64("image", v.MIMEType, v.Data)
	case *mcpgo.ImageContent:
		b.media64("image", v.MIMEType, v.Data)
	case mcpgo.AudioContent:
		b.media64("audio", v.MIMEType, v.Data)
	case *mcpgo.AudioContent:
		b.media64("audio", v.MIMEType, v.Data)
	case mcpgo.EmbeddedResource:
		b.resource(v.Resource)
	case *mcpgo.EmbeddedResource:
		b.resource(v.Resource)
	case mcpgo.ResourceLink:
		b.link(v)
	case *mcpgo.ResourceLink:
		b.link(*v)
	default:
		b.parts = append(b.parts, fmt.Sprintf("[unsupported content of type %T]", c))
	}
}

// media64 adds base64 data of kind ("image", "audio") as a medium; a note
// says so when the data is not valid base64.
func (b *resultBuilder) media64(kind, mime, data string) {
	raw, err := base64.StdEncoding.DecodeString(data)
	if err != nil {
		b.parts = append(b.parts, fmt.Sprintf("[%s (%s) with invalid base64 data]", kind, mime))
		return
	}
	b.media(kind, mime, raw)
}

// media adds raw data of kind as a medium the model sees, with a note in
// the text saying it is there.
func (b *resultBuilder) media(kind, mime string, raw []byte) {
	b.parts = append(b.parts, fmt.Sprintf("[%s: %s, %d bytes]", kind, mime, len(raw)))
	b.images = append(b.images, tools.Image{MIMEType: mime, Data: raw})
}

// resource adds an embedded resource: text with its URI, an image or audio
// blob as a medium, any other blob as a note.
func (b *resultBuilder) resource(r mcpgo.ResourceContents) {
	rc, err := decodeContents(r)
	switch {
	case err != nil:
		b.parts = append(b.parts, fmt.Sprintf("[embedded resource that cannot be read: %v]", err))
	case rc.Blob != nil:
		b.blob(rc.URI, rc.MIMEType, rc.Blob)
	default:
		b.parts = append(b.parts, fmt.Sprintf("[resource %s]\n%s", rc.URI, rc.Text))
	}
}

// blob adds binary resource contents.
func (b *resultBuilder) blob(uri, mime string, raw []byte) {
	b.parts = append(b.parts, fmt.Sprintf("[resource %s]", uri))
	if kind, _, _ := strings.Cut(mime, "/"); kind == "image" || kind == "audio" {
		b.media(kind, mime, raw)
		return
	}
	if mime == "" {
		mime = "unknown type"
	}
	b.parts = append(b.parts, fmt.Sprintf("[binary data (%s, %d bytes) not shown]", mime, len(raw)))
}

// link adds a resource link as text the model can act on.
func (b *resultBuilder) link(l mcpgo.ResourceLink) {
	text := fmt.Sprintf("[resource link: %s", l.URI)
	if l.Name != "" {
		text += " name=" + l.Name
	}
	if l.MIMEType != "" {
		text += " type=" + l.MIMEType
	}
	text += "]"
	if l.Description != "" {
		text += " " + l.Description
	}
	b.parts = append(b.parts, text)
}

// structured appends the structured content as JSON, unless a text block
// already holds the same JSON (servers should send both).
func (b *resultBuilder) structured(res *mcpgo.CallToolResult) {
	raw := res.RawStructuredContent
	if len(raw) == 0 && res.StructuredContent != nil {
		var err error
		if raw, err = json.Marshal(res.StructuredContent); err != nil {
			return
		}
	}
	if len(raw) == 0 || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return
	}
	want := compactJSON(raw)
	for _, p := range b.parts {
		if compactJSON([]byte(p)) == want {
			return
		}
	}
	b.parts = append(b.parts, "Structured content:\n"+want)
}

// compactJSON is data without insignificant space, or "" if it is not JSON.
func compactJSON(data []byte) string {
	var buf bytes.Buffer
	if json.Compact(&buf, bytes.TrimSpace(data)) != nil {
		return ""
	}
	return buf.String()
}
