package gemini

import (
	"log/slog"
	"net/http"
	"strings"

	"companion/agent/model"
)

// Config says how to reach Gemini. The zero value of every optional field
// means "the default".
type Config struct {
	// APIKey authenticates with the Gemini Developer API (or Vertex AI
	// express mode).
	APIKey string
	// UseVertexAI selects Vertex AI instead of the Gemini Developer API.
	UseVertexAI bool
	// Project and Location name the Vertex AI project and region.
	Project, Location string
	// BaseURL overrides the API endpoint (a proxy, or the scripted server
	// in tests).
	BaseURL string
	// HTTPClient is used for every request; nil means a fresh client.
	HTTPClient *http.Client
	// Retry bounds retries of failed requests; see model.RetryPolicy.
	Retry model.RetryPolicy
	// Logger receives retry and failure logs; nil discards them.
	Logger *slog.Logger
}

// ConfigFromEnv reads the usual Gemini environment variables through getenv
// (os.Getenv in main, a map in tests): GEMINI_API_KEY or GOOGLE_API_KEY,
// GOOGLE_GENAI_USE_VERTEXAI with GOOGLE_CLOUD_PROJECT and
// GOOGLE_CLOUD_LOCATION (a project wins over a stray API key; no location
// means "global"), and GOOGLE_GEMINI_BASE_URL. Retry, HTTPClient and
// Logger are left for the caller.
func ConfigFromEnv(getenv func(string) string) Config {
	cfg := Config{
		APIKey:  getenv("GEMINI_API_KEY"),
		BaseURL: getenv("GOOGLE_GEMINI_BASE_URL"),
	}
	if cfg.APIKey == "" {
		cfg.APIKey = getenv("GOOGLE_API_KEY")
	}
	switch strings.ToLower(strings.TrimSpace(getenv("GOOGLE_GENAI_USE_VERTEXAI"))) {
	case "1", "true", "yes":
		cfg.UseVertexAI = true
		cfg.Project = getenv("GOOGLE_CLOUD_PROJECT")
		cfg.Location = getenv("GOOGLE_CLOUD_LOCATION")
		if cfg.Project != "" {
			// A project wins over a stray key, as in the genai SDK.
			cfg.APIKey = ""
		}
	}
	return cfg
}

// validate reports configurations that cannot work, without any I/O.
func (c Config) validate() error {
	if !c.UseVertexAI {
		if c.APIKey == "" {
			return ErrNoAPIKey
		}
		return nil
	}
	if c.APIKey == "" && c.BaseURL == "" && c.Project == "" {
		return ErrNoProject
	}
	return nil
}
