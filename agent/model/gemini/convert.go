package gemini

import (
	"encoding/json"
	"fmt"
	"path"
	"strconv"
	"strings"

	"google.golang.org/genai"

	"companion/agent/model"
)

// buildRequest maps a provider-neutral request to genai's contents and
// config. Tool schemas travel as ParametersJsonSchema, untouched.
func buildRequest(req *model.Request) ([]*genai.Content, *genai.GenerateContentConfig, error) {
	config := &genai.GenerateContentConfig{}
	if req.System != "" {
		config.SystemInstruction = &genai.Content{
			Role:  genai.RoleUser,
			Parts: []*genai.Part{{Text: req.System}},
		}
	}
	if len(req.Tools) > 0 {
		decls := make([]*genai.FunctionDeclaration, 0, len(req.Tools))
		for _, t := range req.Tools {
			decl := &genai.FunctionDeclaration{Name: t.Name, Description: t.Description}
			if len(t.Parameters) > 0 {
				if !json.Valid(t.Parameters) {
					return nil, nil, fmt.Errorf("gemini: tool %q: parameters are not valid JSON", t.Name)
				}
				decl.ParametersJsonSchema = t.Parameters
			}
			decls = append(decls, decl)
		}
		config.Tools = []*genai.Tool{{FunctionDeclarations: decls}}
	}
	if supportsThinking(req.Model) {
		config.ThinkingConfig = &genai.ThinkingConfig{IncludeThoughts: true}
		if b := req.ThinkingBudget; b != nil {
			budget := int32(*b)
			config.ThinkingConfig.ThinkingBudget = &budget
		}
	}
	if n := req.MaxOutputTokens; n != nil {
		config.MaxOutputTokens = int32(*n)
	}
	if t := req.Temperature; t != nil {
		temp := float32(*t)
		config.Temperature = &temp
	}
	contents := make([]*genai.Content, 0, len(req.Contents))
	for _, c := range req.Contents {
		parts := make([]*genai.Part, 0, len(c.Parts))
		for _, p := range c.Parts {
			parts = append(parts, toGenaiPart(p))
		}
		contents = append(contents, &genai.Content{Role: string(c.Role), Parts: parts})
	}
	return contents, config, nil
}

// toGenaiPart maps one part; the thought signature rides on any kind.
func toGenaiPart(p model.Part) *genai.Part {
	out := &genai.Part{ThoughtSignature: p.ThoughtSignature}
	switch {
	case p.FunctionCall != nil:
		fc := p.FunctionCall
		out.FunctionCall = &genai.FunctionCall{ID: fc.ID, Name: fc.Name, Args: fc.Args}
	case p.FunctionResponse != nil:
		fr := p.FunctionResponse
		out.FunctionResponse = &genai.FunctionResponse{ID: fr.ID, Name: fr.Name, Response: fr.Response}
		for _, media := range fr.Parts {
			if media.InlineData == nil {
				continue
			}
			out.FunctionResponse.Parts = append(out.FunctionResponse.Parts, &genai.FunctionResponsePart{
				InlineData: &genai.FunctionResponseBlob{MIMEType: media.InlineData.MIMEType, Data: media.InlineData.Data},
			})
		}
	case p.InlineData != nil:
		out.InlineData = &genai.Blob{MIMEType: p.InlineData.MIMEType, Data: p.InlineData.Data}
	default:
		out.Text = p.Text
		out.Thought = p.Thought
	}
	return out
}

// fromGenaiPart maps one response part; ok is false for kinds companion
// does not use (executable code, file data, ...).
func fromGenaiPart(p *genai.Part, newID func() string) (model.Part, bool) {
	out := model.Part{ThoughtSignature: p.ThoughtSignature}
	switch {
	case p.FunctionCall != nil:
		id := p.FunctionCall.ID
		if id == "" {
			id = newID()
		}
		out.FunctionCall = &model.FunctionCall{ID: id, Name: p.FunctionCall.Name, Args: p.FunctionCall.Args}
	case p.InlineData != nil:
		out.InlineData = &model.Blob{MIMEType: p.InlineData.MIMEType, Data: p.InlineData.Data}
	case p.Text != "" || p.Thought || len(p.ThoughtSignature) > 0:
		// A signature-only part is kept so that it can be sent back.
		out.Text = p.Text
		out.Thought = p.Thought
	default:
		return model.Part{}, false
	}
	return out, true
}

// supportsThinking reports whether the model accepts a thinking config:
// Gemini 2.5 and later, the "-latest" aliases, and the 2.0 thinking models.
func supportsThinking(name string) bool {
	m := path.Base(strings.ToLower(name))
	if strings.Contains(m, "thinking") {
		return true
	}
	rest, ok := strings.CutPrefix(m, "gemini-")
	if !ok || strings.Contains(m, "image") || strings.Contains(m, "tts") || strings.Contains(m, "embedding") {
		return false
	}
	version, _, _ := strings.Cut(rest, "-")
	v, err := strconv.ParseFloat(version, 64)
	if err != nil {
		return strings.HasSuffix(m, "-latest")
	}
	return v >= 2.5
}

// contextWindow is the input window of a model in tokens; unknown models
// get the 1M window of every current Gemini model.
func contextWindow(name string) int {
	m := path.Base(strings.ToLower(name))
	switch {
	case strings.HasPrefix(m, "gemini-1.5-pro"):
		return 2_097_152
	case strings.HasPrefix(m, "gemma-3"):
		return 131_072
	default:
		// gemini-1.5-flash, 2.0-flash(-lite), 2.5-pro/flash/flash-lite, 3-*.
		return 1_048_576
	}
}
