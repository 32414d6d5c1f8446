package openai

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/sashabaranov/go-openai"

	"companion/agent/model"
)

// chatRequest is a go-openai request and the fields its omitempty tags
// would drop, for the doer to put back (see wireFix).
type chatRequest struct {
	openai.ChatCompletionRequest
	fix wireFix
}

// buildParams maps a provider-neutral request to a Chat Completions request:
// the system prompt as a system message, user turns as user messages (text,
// images as data URLs) preceded by one tool message per function response,
// model turns as assistant messages with tool_calls. Thoughts are not sent
// back: most servers reject or ignore reasoning in input messages. newID
// names calls that have no id, and their responses alike.
func buildParams(req *model.Request, newID func() string) (chatRequest, error) {
	params := chatRequest{ChatCompletionRequest: openai.ChatCompletionRequest{
		Model:         req.Model,
		Stream:        true,
		StreamOptions: &openai.StreamOptions{IncludeUsage: true},
	}}
	tools, err := toTools(req.Tools)
	if err != nil {
		return params, err
	}
	params.Tools = tools
	for _, t := range req.Tools {
		params.fix.noParameters = params.fix.noParameters || len(t.Parameters) == 0
	}
	if n := req.MaxOutputTokens; n != nil {
		params.MaxCompletionTokens = *n
	}
	if t := req.Temperature; t != nil {
		params.Temperature = float32(*t)
		params.fix.zeroTemperature = *t == 0
	}
	msgs := make([]openai.ChatCompletionMessage, 0, len(req.Contents)+1)
	if req.System != "" {
		msgs = append(msgs, openai.ChatCompletionMessage{Role: openai.ChatMessageRoleSystem, Content: req.System})
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
	for _, m := range msgs {
		if m.Role == openai.ChatMessageRoleTool && m.Content == "" {
			params.fix.emptyToolContent = true
		}
	}
	params.Messages = msgs
	return params, nil
}

// toTools declares tools as function tools; each JSON schema is sent as it
// is (compacted), not through a Go map, so keywords keep their order.
func toTools(decls []model.ToolDecl) ([]openai.Tool, error) {
	if len(decls) == 0 {
		return nil, nil
	}
	out := make([]openai.Tool, 0, len(decls))
	for _, t := range decls {
		fd := &openai.FunctionDefinition{Name: t.Name, Description: t.Description}
		if len(t.Parameters) > 0 {
			if !json.Valid(t.Parameters) {
				return nil, fmt.Errorf("openai: tool %q: parameters are not valid JSON", t.Name)
			}
			fd.Parameters = json.RawMessage(t.Parameters)
		}
		out = append(out, openai.Tool{Type: openai.ToolTypeFunction, Function: fd})
	}
	return out, nil
}

// assistantMessage maps a model turn; ok is false when nothing in it can
// be sent (a turn of thoughts only).
func assistantMessage(parts []model.Part, ids *callIDs) (openai.ChatCompletionMessage, bool) {
	var text strings.Builder
	var calls []openai.ToolCall
	for _, p := range parts {
		switch {
		case p.FunctionCall != nil:
			fc := p.FunctionCall
			calls = append(calls, openai.ToolCall{
				ID:       ids.call(fc),
				Type:     openai.ToolTypeFunction,
				Function: openai.FunctionCall{Name: fc.Name, Arguments: argsJSON(fc.Args)},
			})
		case p.Thought || p.InlineData != nil || p.FunctionResponse != nil:
			// Not sendable in an assistant message.
		default:
			text.WriteString(p.Text)
		}
	}
	if text.Len() == 0 && len(calls) == 0 {
		return openai.ChatCompletionMessage{}, false
	}
	return openai.ChatCompletionMessage{Role: openai.ChatMessageRoleAssistant, Content: text.String(), ToolCalls: calls}, true
}

// userMessages maps a user turn: one tool message per function response
// (they must follow the assistant's tool_calls directly), then one user
// message with the text, the images, and any images the tools returned,
// which a tool message cannot carry.
func userMessages(parts []model.Part, ids *callIDs) []openai.ChatCompletionMessage {
	var msgs []openai.ChatCompletionMessage
	var content []openai.ChatMessagePart
	var texts []string
	onlyText := true
	for _, p := range parts {
		switch {
		case p.FunctionResponse != nil:
			fr := p.FunctionResponse
			msgs = append(msgs, openai.ChatCompletionMessage{Role: openai.ChatMessageRoleTool, Content: toolOutput(fr), ToolCallID: ids.response(fr)})
			for _, media := range fr.Parts {
				if media.InlineData == nil {
					continue
				}
				onlyText = false
				content = append(content, textPart(fmt.Sprintf("Output of tool %s:", fr.Name)), mediaPart(media.InlineData))
			}
		case p.InlineData != nil:
			onlyText = false
			content = append(content, mediaPart(p.InlineData))
		case p.FunctionCall != nil || p.Text == "":
			// Nothing a user message can carry.
		default:
			texts = append(texts, p.Text)
			content = append(content, textPart(p.Text))
		}
	}
	switch {
	case len(content) == 0:
	case onlyText:
		msgs = append(msgs, openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, Content: strings.Join(texts, "\n")})
	default:
		msgs = append(msgs, openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, MultiContent: content})
	}
	return msgs
}

// textPart is a text content part.
func textPart(text string) openai.ChatMessagePart {
	return openai.ChatMessagePart{Type: openai.ChatMessagePartTypeText, Text: text}
}

// mediaPart sends an image as a data URL. Other media have no portable
// Chat Completions form, so the model is told what was left out.
func mediaPart(b *model.Blob) openai.ChatMessagePart {
	if !strings.HasPrefix(b.MIMEType, "image/") {
		return textPart(fmt.Sprintf("[%s attachment of %d bytes omitted: this model API takes only images]", b.MIMEType, len(b.Data)))
	}
	url := "data:" + b.MIMEType + ";base64," + base64.StdEncoding.EncodeToString(b.Data)
	return openai.ChatMessagePart{Type: openai.ChatMessagePartTypeImageURL, ImageURL: &openai.ChatMessageImageURL{URL: url}}
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
