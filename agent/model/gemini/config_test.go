package gemini

import (
	"context"
	"errors"
	"testing"
)

func TestConfigFromEnv(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		env  map[string]string
		want Config
	}{
		{"nothing", nil, Config{}},
		{"gemini key", map[string]string{"GEMINI_API_KEY": "g"}, Config{APIKey: "g"}},
		{"google key", map[string]string{"GOOGLE_API_KEY": "o"}, Config{APIKey: "o"}},
		{"gemini key first", map[string]string{"GEMINI_API_KEY": "g", "GOOGLE_API_KEY": "o"}, Config{APIKey: "g"}},
		{"base url", map[string]string{"GEMINI_API_KEY": "g", "GOOGLE_GEMINI_BASE_URL": "http://127.0.0.1:9"},
			Config{APIKey: "g", BaseURL: "http://127.0.0.1:9"}},
		{"vertex project", map[string]string{"GOOGLE_GENAI_USE_VERTEXAI": "true", "GOOGLE_CLOUD_PROJECT": "p",
			"GOOGLE_CLOUD_LOCATION": "us-central1", "GEMINI_API_KEY": "stray"},
			Config{UseVertexAI: true, Project: "p", Location: "us-central1"}},
		{"vertex express", map[string]string{"GOOGLE_GENAI_USE_VERTEXAI": "1", "GOOGLE_API_KEY": "v"},
			Config{UseVertexAI: true, APIKey: "v"}},
		{"vertex off", map[string]string{"GOOGLE_GENAI_USE_VERTEXAI": "false", "GOOGLE_CLOUD_PROJECT": "p"}, Config{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := ConfigFromEnv(func(k string) string { return tt.env[k] })
			if got != tt.want {
				t.Errorf("ConfigFromEnv = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestNewValidates(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		cfg  Config
		want error
	}{
		{"gemini without key", Config{}, ErrNoAPIKey},
		{"gemini with key", Config{APIKey: "k"}, nil},
		{"vertex without anything", Config{UseVertexAI: true}, ErrNoProject},
		{"vertex project", Config{UseVertexAI: true, Project: "p"}, nil},
		{"vertex express", Config{UseVertexAI: true, APIKey: "k"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p, err := New(context.Background(), tt.cfg)
			if !errors.Is(err, tt.want) || (err == nil) != (p != nil) {
				t.Errorf("New = %v, %v; want error %v", p, err, tt.want)
			}
			if p != nil && p.client != nil {
				t.Error("New built the genai client eagerly")
			}
		})
	}
}

func TestSupportsThinking(t *testing.T) {
	t.Parallel()
	tests := map[string]bool{
		"gemini-2.5-pro":                true,
		"gemini-2.5-flash-lite":         true,
		"models/gemini-2.5-flash":       true,
		"gemini-3-pro-preview":          true,
		"gemini-flash-latest":           true,
		"gemini-2.0-flash-thinking-exp": true,
		"gemini-2.0-flash":              false,
		"gemini-1.5-pro":                false,
		"gemini-2.5-flash-image":        false,
		"gemini-2.5-flash-preview-tts":  false,
		"gemma-3-27b-it":                false,
	}
	for name, want := range tests {
		if got := supportsThinking(name); got != want {
			t.Errorf("supportsThinking(%q) = %v, want %v", name, got, want)
		}
	}
}
