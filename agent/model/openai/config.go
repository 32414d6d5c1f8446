package openai

import (
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"

	"companion/agent/model"
)

// DefaultBaseURL is OpenAI's own endpoint, used when Config.BaseURL is empty.
const DefaultBaseURL = "https://api.openai.com/v1"

// DefaultContextWindow is the input window assumed when
// Config.ContextWindow is zero: 128k tokens, common to current hosted models
// and a safe upper bound that compression can work with.
const DefaultContextWindow = 128_000

// Config says how to reach an OpenAI-compatible server. The zero value of
// every optional field means "the default".
type Config struct {
	// APIKey is sent as "Authorization: Bearer <key>"; empty sends no
	// Authorization header, which local servers (Ollama, llama.cpp) accept.
	APIKey string
	// BaseURL is the API root that "chat/completions" is appended to,
	// usually ending in /v1: http://localhost:11434/v1 (Ollama),
	// http://localhost:8000/v1 (vLLM), http://localhost:8080/v1 (llama.cpp),
	// https://openrouter.ai/api/v1. Empty means DefaultBaseURL.
	BaseURL string
	// HTTPClient is used for every request; nil means a fresh client with
	// no overall timeout (streams are bounded by the request context).
	HTTPClient *http.Client
	// Retry bounds retries of failed requests; see model.RetryPolicy.
	Retry model.RetryPolicy
	// Logger receives retry and failure logs; nil discards them.
	Logger *slog.Logger
	// ContextWindow is the model's input window in tokens, reported by
	// Provider.ContextWindow for every model; 0 means DefaultContextWindow.
	ContextWindow int
	// Headers are added to every request (OpenRouter's HTTP-Referer and
	// X-Title, a proxy's auth header, ...).
	Headers map[string]string
}

// ConfigFromEnv reads OPENAI_API_KEY and OPENAI_BASE_URL through getenv
// (os.Getenv in main, a map in tests). Everything else is left for the
// caller.
func ConfigFromEnv(getenv func(string) string) Config {
	return Config{APIKey: getenv("OPENAI_API_KEY"), BaseURL: getenv("OPENAI_BASE_URL")}
}

// baseURL is the configured base URL without a trailing slash, checked
// without any I/O.
func (c Config) baseURL() (string, error) {
	raw := strings.TrimSpace(c.BaseURL)
	if raw == "" {
		return DefaultBaseURL, nil
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("%w (got %q)", ErrBadBaseURL, raw)
	}
	return strings.TrimRight(raw, "/"), nil
}
