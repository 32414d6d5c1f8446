package acp

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// Hand-written constructors for the generated types that the server code
// builds most often. Keep this file small; anything mechanical belongs in
// the generator.

// TextBlock returns a "text" content block.
func TextBlock(text string) ContentBlock {
	return ContentBlock{Text: &TextContent{Text: text}}
}

// ImageBlock returns an "image" content block; b64 is the base64 data
// without a "data:" prefix.
func ImageBlock(mime, b64 string) ContentBlock {
	return ContentBlock{Image: &ImageContent{MIMEType: mime, Data: b64}}
}

// ToolContent wraps a content block as tool call content
// ({"type":"content","content":{...}}); a bare block is not valid there.
func ToolContent(b ContentBlock) ToolCallContent {
	return ToolCallContent{Content: &Content{Content: b}}
}

// DiffContent returns "diff" tool call content for the absolute path.
// oldText nil means a new file; a pointer to "" an existing empty one.
func DiffContent(path string, oldText *string, newText string) ToolCallContent {
	return ToolCallContent{Diff: &Diff{Path: path, OldText: oldText, NewText: newText}}
}

// TerminalContent returns tool call content that embeds the live output of
// a terminal made with terminal/create.
func TerminalContent(id TerminalID) ToolCallContent {
	return ToolCallContent{Terminal: &Terminal{TerminalID: id}}
}

// IntRequestID returns the JSON-RPC id n (a JSON integer).
func IntRequestID(n int64) RequestID {
	return RequestID{raw: strconv.FormatInt(n, 10)}
}

// StringRequestID returns the JSON-RPC id s (a JSON string). It compares
// equal to the same id decoded from the wire unless the sender escaped
// characters it did not need to.
func StringRequestID(s string) RequestID {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // encoding a string cannot fail
	return RequestID{raw: string(bytes.TrimSpace(b.Bytes()))}
}
