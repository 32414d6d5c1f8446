package openai

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/shared"

	"companion/agent/model"
)

// buildParams maps a provider-neutral request to Chat Completions params:
// the system prompt as a system message, user turns as user messages (text,
// images as data URLs) preceded by one tool message per function response,
// model turns as assistant messages with tool_calls. Thoughts are not sent
// back: most servers reject or ignore reasoning in input messages. newID
// names calls that have no id, and their responses alike.
func buildParams(req *model.Request, newID func() string) (openai.ChatCompletionNewParams, error) {
	params := openai.ChatCompletionNewParams{
		Model:         req.Model,
		StreamOptions: openai.ChatCompletionStreamOptionsParam{IncludeUsage: param.NewOpt(true)},
	}
	tools, err := toTools(req.Tools)
	if err != nil {
		return params, err
	}
	params.Tools = tools
	if n := req.MaxOutputTokens; n != nil {
		params.MaxCompletionTokens = param.NewOpt(int64(*n))
	}
	if t := req.Temperature; t != nil {
		params.Temperature = param.NewOpt(*t)
	}
	msgs := make([]openai.ChatCompletionMessageParamUnion, 0, len(req.Contents)+1)
	if req.System != "" {
		msgs = append(msgs, openai.SystemMessage(req.System))
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
// is, byte for byte (compacted), not through a Go map.
func toTools(decls []model.ToolDecl) ([]openai.ChatCompletionToolUnionParam, error) {
	if len(decls) == 0 {
		return nil, nil
	}
	out := make([]openai.ChatCompletionToolUnionParam, 0, len(decls))
	for _, t := range decls {
		fd := shared.FunctionDefinitionParam{Name: t.Name}
		if t.Description != "" {
			fd.Description = param.NewOpt(t.Description)
		}
		if len(t.Parameters) > 0 {
			if !json.Valid(t.Parameters) {
				return nil, fmt.Errorf("openai: tool %q: parameters are not valid JSON", t.Name)
			}
			fd.SetExtraFields(map[string]any{"parameters": json.RawMessage(t.Parameters)})
		}
		out = append(out, openai.ChatCompletionFunctionTool(fd))
	}
	return out, nil
}

// assistantMessage maps a model turn; ok is false when nothing in it can
// be sent (a turn of thoughts only).
func assistantMessage(parts []model.Part, ids *callIDs) (openai.ChatCompletionMessageParamUnion, bool) {
	var text strings.Builder
	var calls []openai.ChatCompletionMessageToolCallUnionParam
	for _, p := range parts {
		switch {
		case p.FunctionCall != nil:
			fc := p.FunctionCall
			calls = append(calls, openai.ChatCompletionMessageToolCallUnionParam{
				OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{
					ID:       ids.call(fc),
					Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: fc.Name, Arguments: argsJSON(fc.Args)},
				},
			})
		case p.Thought || p.InlineData != nil || p.FunctionResponse != nil:
			// Not sendable in an assistant message.
		default:
			text.WriteString(p.Text)
		}
	}
	if text.Len() == 0 && len(calls) == 0 {
		return openai.ChatCompletionMessageParamUnion{}, false
	}
	msg := &openai.ChatCompletionAssistantMessageParam{ToolCalls: calls}
	if text.Len() > 0 {
		msg.Content.OfString = param.NewOpt(text.String())
	}
	return openai.ChatCompletionMessageParamUnion{OfAssistant: msg}, true
}

// userMessages maps a user turn: one tool message per function response
// (they must follow the assistant's tool_calls directly), then one user
// message with the text, the images, and any images the tools returned,
// which a tool message cannot carry.
func userMessages(parts []model.Part, ids *callIDs) []openai.ChatCompletionMessageParamUnion {
	var msgs []openai.ChatCompletionMessageParamUnion
	var content []openai.ChatCompletionContentPartUnionParam
	var texts []string
	onlyText := true
	for _, p := range parts {
		switch {
		case p.FunctionResponse != nil:
			fr := p.FunctionResponse
			msgs = append(msgs, openai.ToolMessage(toolOutput(fr), ids.response(fr)))
			for _, media := range fr.Parts {
				if media.InlineData == nil {
					continue
				}
				onlyText = false
				content = append(content, openai.TextContentPart(fmt.Sprintf("Output of tool %s:", fr.Name)), mediaPart(media.InlineData))
			}
		case p.InlineData != nil:
			onlyText = false
			content = append(content, mediaPart(p.InlineData))
		case p.FunctionCall != nil || p.Text == "":
			// Nothing a user message can carry.
		default:
			texts = append(texts, p.Text)
			content = append(content, openai.TextContentPart(p.Text))
		}
	}
	switch {
	case len(content) == 0:
	case onlyText:
		msgs = append(msgs, openai.UserMessage(strings.Join(texts, "\n")))
	default:
		msgs = append(msgs, openai.UserMessage(content))
	}
	return msgs
}

// mediaPart sends an image as a data URL. Other media have no portable
// Chat Completions form, so the model is told what was left out.
func mediaPart(b *model.Blob) openai.ChatCompletionContentPartUnionParam {
	if !strings.HasPrefix(b.MIMEType, "image/") {
		return openai.TextContentPart(fmt.Sprintf("[%s attachment of %d bytes omitted: this model API takes only images]", b.MIMEType, len(b.Data)))
	}
	url := "data:" + b.MIMEType + ";base64," + base64.StdEncoding.EncodeToString(b.Data)
	return openai.ImageContentPart(openai.ChatCompletionContentPartImageImageURLParam{URL: url})
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
