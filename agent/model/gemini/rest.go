package gemini

import (
	"encoding/json"
	"fmt"
	"strings"

	"google.golang.org/genai"
)

// restRequest is the body of a Gemini API generateContent call, in the REST
// shape: the system instruction, tools, tool config and safety settings sit
// at the top level, the sampling settings under generationConfig (genai's
// GenerateContentConfig mixes them). genai's own types carry the REST field
// names, so they are embedded as they are.
type restRequest struct {
	Contents          []*genai.Content       `json:"contents"`
	SystemInstruction *genai.Content         `json:"systemInstruction,omitempty"`
	Tools             []*genai.Tool          `json:"tools,omitempty"`
	ToolConfig        *genai.ToolConfig      `json:"toolConfig,omitempty"`
	SafetySettings    []*genai.SafetySetting `json:"safetySettings,omitempty"`
	GenerationConfig  restGenerationConfig   `json:"generationConfig"`
}

// restGenerationConfig is generationConfig: the part of
// GenerateContentConfig that the Gemini API takes under that name, for the
// fields buildRequest can set.
type restGenerationConfig struct {
	Temperature     *float32              `json:"temperature,omitempty"`
	TopP            *float32              `json:"topP,omitempty"`
	TopK            *float32              `json:"topK,omitempty"`
	MaxOutputTokens int32                 `json:"maxOutputTokens,omitempty"`
	StopSequences   []string              `json:"stopSequences,omitempty"`
	Seed            *int32                `json:"seed,omitempty"`
	ThinkingConfig  *genai.ThinkingConfig `json:"thinkingConfig,omitempty"`
}

// restBody marshals contents and config once into the request body of
// the Gemini API, or of Vertex AI when vertex is set: the two take the same
// REST shape for every field restBody maps. It refuses what the chosen API
// does not take (as genai's own converters do) and anything of config it
// does not map, so that no setting is silently dropped.
func restBody(contents []*genai.Content, config *genai.GenerateContentConfig, vertex bool) ([]byte, error) {
	if err := unmapped(config); err != nil {
		return nil, err
	}
	refuse := geminiRefusals
	if vertex {
		refuse = vertexRefusals
	}
	if err := refuse(contents, config); err != nil {
		return nil, err
	}
	body := restRequest{
		Contents:          contents,
		SystemInstruction: config.SystemInstruction,
		Tools:             config.Tools,
		ToolConfig:        config.ToolConfig,
		SafetySettings:    config.SafetySettings,
		GenerationConfig: restGenerationConfig{
			Temperature:     config.Temperature,
			TopP:            config.TopP,
			TopK:            config.TopK,
			MaxOutputTokens: config.MaxOutputTokens,
			StopSequences:   config.StopSequences,
			Seed:            config.Seed,
			ThinkingConfig:  config.ThinkingConfig,
		},
	}
	if body.Contents == nil {
		body.Contents = []*genai.Content{}
	}
	return json.Marshal(&body)
}

// geminiRefusals reports what the Developer API does not take: a safety
// setting's method and partial function call arguments.
func geminiRefusals(contents []*genai.Content, config *genai.GenerateContentConfig) error {
	for _, s := range config.SafetySettings {
		if s != nil && s.Method != "" {
			return fmt.Errorf("gemini: safety setting method is only supported on Vertex AI")
		}
	}
	for _, c := range contents {
		for _, p := range c.Parts {
			if fc := p.FunctionCall; fc != nil && (fc.PartialArgs != nil || fc.WillContinue != nil) {
				return fmt.Errorf("gemini: partial function call arguments are only supported on Vertex AI")
			}
		}
	}
	return nil
}

// unmapped reports a config field restBody does not carry: config with the
// mapped fields cleared must marshal to an empty object.
func unmapped(config *genai.GenerateContentConfig) error {
	rest := *config
	rest.SystemInstruction, rest.Tools, rest.ToolConfig, rest.SafetySettings = nil, nil, nil, nil
	rest.Temperature, rest.TopP, rest.TopK, rest.MaxOutputTokens = nil, nil, nil, 0
	rest.StopSequences, rest.Seed, rest.ThinkingConfig = nil, nil, nil
	b, err := json.Marshal(&rest)
	if err != nil {
		return fmt.Errorf("gemini: generation config: %w", err)
	}
	if string(b) != "{}" {
		return fmt.Errorf("gemini: generation config field not sent by the streaming client: %s", b)
	}
	return nil
}

// restModel is the model's resource name on the Gemini API, as genai
// names it: "models/NAME" unless it already names a model or tuned model.
func restModel(name string) (string, error) {
	if name == "" || strings.ContainsAny(name, "?&") || strings.Contains(name, "..") {
		return "", fmt.Errorf("gemini: invalid model name %q", name)
	}
	if strings.HasPrefix(name, "models/") || strings.HasPrefix(name, "tunedModels/") {
		return name, nil
	}
	return "models/" + name, nil
}
