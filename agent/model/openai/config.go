package openai

import (
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"
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
	// Retry bounds retries of failed requests.
	Retry RetryPolicy
	// Logger receives retry and failure logs; nil discards them.
	Logger *slog.Logger
	// ContextWindow is the model's input window in tokens, reported by
	// Provider.ContextWindow for every model; 0 means DefaultContextWindow.
	ContextWindow int
	// Headers are added to every request (OpenRouter's HTTP-Referer and
	// X-Title, a proxy's auth header, ...).
	Headers map[string]string
}

// RetryPolicy is exponential backoff with full jitter: before retry n the
// provider waits a random time in [0, min(MaxDelay, BaseDelay·2^(n-1))],
// unless the server named a delay (Retry-After, retry-after-ms), which wins.
// It has the same fields and meaning as gemini.RetryPolicy.
type RetryPolicy struct {
	// MaxAttempts counts every request including the first; 0 means 5 and
	// 1 means no retries.
	MaxAttempts int
	// BaseDelay is the backoff's first ceiling; 0 means 1 s.
	BaseDelay time.Duration
	// MaxDelay caps one backoff wait; 0 means 30 s.
	MaxDelay time.Duration
	// MaxServerDelay is the longest server-requested wait honoured; a longer
	// request gives up at once. 0 means 2 min.
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
