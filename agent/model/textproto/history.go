package textproto

import (
	"bytes"
	"encoding/json"
	"strings"

	"companion/agent/model"
)

// rewriteContents returns the history as the inner model sees it: function
// calls as tool_call blocks in model turns, function responses as
// <tool_result> blocks in user turns, thoughts dropped (they were the
// model's own and are not sent back). Turns left empty are dropped.
func rewriteContents(contents []model.Content) []model.Content {
	out := make([]model.Content, 0, len(contents))
	for _, c := range contents {
		var parts []model.Part
		for _, p := range c.Parts {
			switch {
			case p.FunctionCall != nil:
				parts = appendBlock(parts, callText(p.FunctionCall))
			case p.FunctionResponse != nil:
				parts = appendBlock(parts, resultText(p.FunctionResponse))
				parts = append(parts, mediaOf(p.FunctionResponse.Parts)...)
			case p.Thought:
			case p.InlineData != nil:
				parts = append(parts, model.Part{InlineData: p.InlineData})
			case p.Text != "":
				parts = append(parts, model.Part{Text: p.Text})
			}
		}
		if len(parts) > 0 {
			out = append(out, model.Content{Role: c.Role, Parts: parts})
		}
	}
	return out
}

// appendBlock adds a call or result block as its own text part, on its own
// lines whether the provider joins parts with newlines or with nothing.
func appendBlock(parts []model.Part, block string) []model.Part {
	if n := len(parts); n > 0 && parts[n-1].Text != "" && !strings.HasSuffix(parts[n-1].Text, "\n") {
		block = "\n" + block
	}
	return append(parts, model.Part{Text: block + "\n"})
}

// callText renders a function call the way the model is asked to write one.
func callText(fc *model.FunctionCall) string {
	args := fc.Args
	if args == nil {
		args = map[string]any{}
	}
	body := marshal(struct {
		Name      string         `json:"name"`
		Arguments map[string]any `json:"arguments"`
	}{fc.Name, args})
	return "```tool_call\n" + body + "\n```"
}

// resultText renders a function response: the output or error text as it
// is, anything else as JSON; text parts the tool added follow it.
func resultText(fr *model.FunctionResponse) string {
	attrs := `name="` + attr(fr.Name) + `"`
	if fr.ID != "" {
		attrs += ` id="` + attr(fr.ID) + `"`
	}
	var body string
	out, hasOut := fr.Response["output"]
	errv, hasErr := fr.Response["error"]
	switch {
	case hasOut && len(fr.Response) == 1:
		body = valueText(out)
	case hasErr && len(fr.Response) == 1:
		attrs += ` error="true"`
		body = valueText(errv)
	default:
		body = marshal(fr.Response)
	}
	for _, p := range fr.Parts {
		if p.Text != "" && !p.Thought {
			body += "\n" + p.Text
		}
	}
	return "<tool_result " + attrs + ">\n" + body + "\n</tool_result>"
}

// mediaOf returns the inline data among a response's extra parts.
func mediaOf(parts []model.Part) []model.Part {
	var out []model.Part
	for _, p := range parts {
		if p.InlineData != nil {
			out = append(out, model.Part{InlineData: p.InlineData})
		}
	}
	return out
}

// valueText is a string as it is, anything else as JSON.
func valueText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return marshal(v)
}

// marshal encodes v as compact JSON without HTML escaping.
func marshal(v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "null"
	}
	return strings.TrimSuffix(buf.String(), "\n")
}

// attr escapes an attribute value.
func attr(s string) string {
	return strings.NewReplacer(`&`, "&amp;", `"`, "&quot;", `<`, "&lt;", `>`, "&gt;").Replace(s)
}
