package openai

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	"companion/agent/model"
)

// buildParams maps a provider-neutral request to a Chat Completions request:
// the system prompt as a system message, user turns as user messages (text,
// images as data URLs) preceded by one tool message per function response,
// model turns as assistant messages with tool_calls. Thoughts are not sent
// back: most servers reject or ignore reasoning in input messages. newID
// names calls that have no id, and their responses alike. The temperature
// and the token limit are sent as asked, for any model: the server decides
// what it accepts (see Provider.Stream for a rejected temperature).
func buildParams(req *model.Request, newID func() string) (*chatRequest, error) {
	tools, err := toTools(req.Tools)
	if err != nil {
		return nil, err
	}
	params := &chatRequest{
		Model:               req.Model,
		Tools:               tools,
		Temperature:         req.Temperature,
		MaxCompletionTokens: req.MaxOutputTokens,
		Stream:              true,
		StreamOptions:       &streamOptions{IncludeUsage: true},
	}
	msgs := make([]message, 0, len(req.Contents)+1)
	if req.System != "" {
		msgs = append(msgs, message{Role: roleSystem, Content: textContent(req.System)})
	}
	ids := &callIDs{newID: newID, pending: map[string][]string{}}
	for _, c := range req.Contents {
		if c.Role == model.RoleModel {
			if m, ok := assistantMessage(c.Parts, ids); ok {
				msgs = append(msgs, m)
			}
			continue
		}
		msgs = append(msgs, userMessages(c.Parts, ids)...)
	}
	params.Messages = msgs
	return params, nil
}

// toTools declares tools as function tools; each JSON schema is sent as it
// is (compacted), not through a Go map, so keywords keep their order.
func toTools(decls []model.ToolDecl) ([]tool, error) {
	if len(decls) == 0 {
		return nil, nil
	}
	out := make([]tool, 0, len(decls))
	for _, t := range decls {
		fd := function{Name: t.Name, Description: t.Description}
		if len(t.Parameters) > 0 {
			if !json.Valid(t.Parameters) {
				return nil, fmt.Errorf("openai: tool %q: parameters are not valid JSON", t.Name)
			}
			fd.Parameters = json.RawMessage(t.Parameters)
		}
		out = append(out, tool{Type: "function", Function: fd})
	}
	return out, nil
}

// assistantMessage maps a model turn; ok is false when nothing in it can
// be sent (a turn of thoughts only).
func assistantMessage(parts []model.Part, ids *callIDs) (message, bool) {
	var text strings.Builder
	var calls []toolCall
	for _, p := range parts {
		switch {
		case p.FunctionCall != nil:
			fc := p.FunctionCall
			calls = append(calls, toolCall{
				ID:       ids.call(fc),
				Type:     "function",
				Function: functionCall{Name: fc.Name, Arguments: argsJSON(fc.Args)},
			})
		case p.Thought || p.InlineData != nil || p.FunctionResponse != nil:
			// Not sendable in an assistant message.
		default:
			text.WriteString(p.Text)
		}
	}
	switch {
	case text.Len() == 0 && len(calls) == 0:
		return message{}, false
	case text.Len() == 0:
		return message{Role: roleAssistant, ToolCalls: calls}, true
	}
	return message{Role: roleAssistant, Content: textContent(text.String()), ToolCalls: calls}, true
}

// userMessages maps a user turn: one tool message per function response
// (they must follow the assistant's tool_calls directly), then one user
// message with the text, the images, and any images the tools returned,
// which a tool message cannot carry.
func userMessages(parts []model.Part, ids *callIDs) []message {
	var msgs []message
	var items []contentPart
	var texts []string
	onlyText := true
	for _, p := range parts {
		switch {
		case p.FunctionResponse != nil:
			fr := p.FunctionResponse
			msgs = append(msgs, message{Role: roleTool, Content: textContent(toolOutput(fr)), ToolCallID: ids.response(fr)})
			for _, media := range fr.Parts {
				if media.InlineData == nil {
					continue
				}
				onlyText = false
				items = append(items, textPart(fmt.Sprintf("Output of tool %s:", fr.Name)), mediaPart(media.InlineData))
			}
		case p.InlineData != nil:
			onlyText = false
			items = append(items, mediaPart(p.InlineData))
		case p.FunctionCall != nil || p.Text == "":
			// Nothing a user message can carry.
		default:
			texts = append(texts, p.Text)
			items = append(items, textPart(p.Text))
		}
	}
	switch {
	case len(items) == 0:
	case onlyText:
		msgs = append(msgs, message{Role: roleUser, Content: textContent(strings.Join(texts, "\n"))})
	default:
		msgs = append(msgs, message{Role: roleUser, Content: &content{parts: items}})
	}
	return msgs
}

// textPart is a text content part.
func textPart(text string) contentPart {
	return contentPart{Type: "text", Text: text}
}

// mediaPart sends an image as a data URL. Other media have no portable
// Chat Completions form, so the model is told what was left out.
func mediaPart(b *model.Blob) contentPart {
	if !strings.HasPrefix(b.MIMEType, "image/") {
		return textPart(fmt.Sprintf("[%s attachment of %d bytes omitted: this model API takes only images]", b.MIMEType, len(b.Data)))
	}
	url := "data:" + b.MIMEType + ";base64," + base64.StdEncoding.EncodeToString(b.Data)
	return contentPart{Type: "image_url", ImageURL: &imageURL{URL: url}}
}

// toolOutput is a tool message's text: the output itself when it is the
// only field and a string, else the response as JSON ({"error": ...}).
func toolOutput(fr *model.FunctionResponse) string {
	if out, ok := fr.Response["output"].(string); ok && len(fr.Response) == 1 {
		return out
	}
	data, err := json.Marshal(fr.Response)
	if err != nil {
		return fmt.Sprintf("%v", fr.Response)
	}
	return string(data)
}

// argsJSON is a call's arguments as the JSON text the API expects.
func argsJSON(args map[string]any) string {
	if args == nil {
		return "{}"
	}
	data, err := json.Marshal(args)
	if err != nil {
		return "{}"
	}
	return string(data)
}

// callIDs pairs function calls and responses that came without ids: a call
// gets a fresh id, and the next response to a call of the same name takes
// it, so tool_call_id always matches.
type callIDs struct {
	newID   func() string
	pending map[string][]string
}

// call is fc's id, made up when it has none.
func (c *callIDs) call(fc *model.FunctionCall) string {
	if fc.ID != "" {
		return fc.ID
	}
	id := c.newID()
	c.pending[fc.Name] = append(c.pending[fc.Name], id)
	return id
}

// response is the id of the call fr answers.
func (c *callIDs) response(fr *model.FunctionResponse) string {
	if fr.ID != "" {
		return fr.ID
	}
	if q := c.pending[fr.Name]; len(q) > 0 {
		c.pending[fr.Name] = q[1:]
		return q[0]
	}
	return c.newID()
}
