package gemini

import (
	"fmt"
	"strings"

	"google.golang.org/genai"
)

// vertexEndpoint is where genai sends Vertex AI requests for the client
// config it resolved (genai.Client.ClientConfig): its base URL (the
// location's regional, multi-regional or global host, a configured or
// GOOGLE_VERTEX_BASE_URL proxy), its API version, the project and location
// that survived its precedence rules, and the API key of express mode.
// Reading them from genai rather than repeating its rules keeps the two
// clients on one URL for every configuration.
func vertexEndpoint(cc genai.ClientConfig) endpoint {
	return endpoint{
		base:     cc.HTTPOptions.BaseURL,
		version:  cc.HTTPOptions.APIVersion,
		apiKey:   cc.APIKey,
		vertex:   true,
		project:  cc.Project,
		location: cc.Location,
	}
}

// vertexModel is the model's resource path on Vertex AI, as genai names
// it: a projects/, models/ or publishers/ path as it is, "org/name" as
// that publisher's model, a bare name as Google's.
func vertexModel(name string) (string, error) {
	if name == "" || strings.ContainsAny(name, "?&") || strings.Contains(name, "..") {
		return "", fmt.Errorf("gemini: invalid model name %q", name)
	}
	for _, prefix := range []string{"projects/", "models/", "publishers/"} {
		if strings.HasPrefix(name, prefix) {
			return name, nil
		}
	}
	if org, model, ok := strings.Cut(name, "/"); ok {
		return "publishers/" + org + "/models/" + model, nil
	}
	return "publishers/google/models/" + name, nil
}

// vertexRefusals reports what Vertex AI does not take, as genai's Vertex
// converter refuses it: a part's tool call, tool response or metadata, a
// function response's willContinue or its media's processing, the file
// search tool and server-side tool invocations.
func vertexRefusals(contents []*genai.Content, config *genai.GenerateContentConfig) error {
	all := contents
	if config.SystemInstruction != nil {
		all = append([]*genai.Content{config.SystemInstruction}, contents...)
	}
	for _, c := range all {
		if c == nil {
			continue
		}
		for _, p := range c.Parts {
			if err := vertexPartRefusal(p); err != nil {
				return err
			}
		}
	}
	for _, t := range config.Tools {
		if t != nil && t.FileSearch != nil {
			return fmt.Errorf("gemini: the file search tool is not supported on Vertex AI")
		}
	}
	if tc := config.ToolConfig; tc != nil && tc.IncludeServerSideToolInvocations != nil {
		return fmt.Errorf("gemini: server-side tool invocations are not supported on Vertex AI")
	}
	return nil
}

// vertexPartRefusal reports a field of p that Vertex AI does not take.
func vertexPartRefusal(p *genai.Part) error {
	switch {
	case p == nil:
		return nil
	case p.ToolCall != nil, p.ToolResponse != nil:
		return fmt.Errorf("gemini: server-side tool calls in contents are not supported on Vertex AI")
	case p.PartMetadata != nil:
		return fmt.Errorf("gemini: part metadata is not supported on Vertex AI")
	}
	if fr := p.FunctionResponse; fr != nil {
		if fr.WillContinue != nil {
			return fmt.Errorf("gemini: a continuing function response is not supported on Vertex AI")
		}
		for _, part := range fr.Parts {
			if part != nil && part.MediaProcessing != "" {
				return fmt.Errorf("gemini: media processing of a function response is not supported on Vertex AI")
			}
		}
	}
	return nil
}
