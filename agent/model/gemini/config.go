package gemini

import (
	"log/slog"
	"net/http"
	"strings"
	"time"
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
	// Retry bounds retries of failed requests.
	Retry RetryPolicy
	// Logger receives retry and failure logs; nil discards them.
	Logger *slog.Logger
}

// RetryPolicy is exponential backoff with full jitter: before retry n the
// provider waits a random time in [0, min(MaxDelay, BaseDelay·2^(n-1))],
// unless the server named a delay, which wins.
type RetryPolicy struct {
	// MaxAttempts counts every request including the first; 0 means 5 and
	// 1 means no retries.
	MaxAttempts int
	// BaseDelay is the backoff's first ceiling; 0 means 1 s.
	BaseDelay time.Duration
	// MaxDelay caps one backoff wait; 0 means 30 s.
	MaxDelay time.Duration
	// MaxServerDelay is the longest server-requested wait honoured; a longer
	// request (a daily quota, say) gives up at once. 0 means 2 min.
	MaxServerDelay time.Duration
}

// Default retry settings.
const (
	defaultAttempts       = 5
	defaultBaseDelay      = time.Second
	defaultMaxDelay       = 30 * time.Second
	defaultMaxServerDelay = 2 * time.Minute
)

// withDefaults fills the zero fields.
func (r RetryPolicy) withDefaults() RetryPolicy {
	if r.MaxAttempts <= 0 {
		r.MaxAttempts = defaultAttempts
	}
	if r.BaseDelay <= 0 {
		r.BaseDelay = defaultBaseDelay
	}
	if r.MaxDelay <= 0 {
		r.MaxDelay = defaultMaxDelay
	}
	if r.MaxServerDelay <= 0 {
		r.MaxServerDelay = defaultMaxServerDelay
	}
	return r
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
