package textproto

import (
	"bytes"
	"encoding/json"
	"strings"

	"companion/agent/model"
)

// toolPrompt describes the tools and the call format for the system prompt.
func toolPrompt(tools []model.ToolDecl) string {
	var b strings.Builder
	b.WriteString(`# Tools

You can call tools. To call one, write a fenced code block tagged tool_call that holds one JSON object with the tool's name and its arguments, exactly like this:

` + "```tool_call" + `
{"name": "TOOL_NAME", "arguments": {"PARAMETER": "VALUE"}}
` + "```" + `

- The arguments must be valid JSON and follow the tool's parameter schema below.
- To make several calls at once, write one block per call.
- After your calls, stop writing: the results come back in the next message as <tool_result name="..." id="...">...</tool_result>, one per call, with error="true" when a call failed. Never write a tool_result yourself.
- Only call the tools listed here. When you need no tool, just answer.

## Available tools
`)
	for _, t := range tools {
		b.WriteString("\n### ")
		b.WriteString(t.Name)
		b.WriteString("\n")
		if d := strings.TrimSpace(t.Description); d != "" {
			b.WriteString(d)
			b.WriteString("\n")
		}
		b.WriteString("Parameters (JSON Schema): ")
		b.WriteString(compactSchema(t.Parameters))
		b.WriteString("\n")
	}
	return b.String()
}

// compactSchema renders a parameter schema on one line; no schema is an
// object without properties.
func compactSchema(raw json.RawMessage) string {
	if len(bytes.TrimSpace(raw)) == 0 {
		return `{"type":"object","properties":{}}`
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return string(raw)
	}
	return buf.String()
}
