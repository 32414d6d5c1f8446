package config

import "fmt"

// Web search backends for google_web_search.
const (
	// WebSearchGemini is Gemini's Google Search grounding.
	WebSearchGemini = "gemini"
	// WebSearchSearXNG is a SearXNG instance's JSON API.
	WebSearchSearXNG = "searxng"
	// WebSearchOff offers no web search tool.
	WebSearchOff = "off"
)

// WebSearch is the "webSearch" setting. With the Gemini provider and no
// setting, searches go through the session's own Gemini connection; an
// OpenAI-compatible provider has no search of its own, so the tool is
// offered only when Provider names a backend here.
type WebSearch struct {
	// Provider is "gemini", "searxng", "off", or "" (the Gemini provider's
	// own search, none for other providers).
	Provider string `json:"provider,omitempty"`
	// APIKey is the Gemini API key for searches, when the session's
	// provider is not Gemini or should not be charged.
	APIKey string `json:"apiKey,omitempty"`
	// Model answers Gemini searches (default gemini-2.5-flash).
	Model string `json:"model,omitempty"`
	// BaseURL overrides the Gemini endpoint for searches.
	BaseURL string `json:"baseUrl,omitempty"`
	// URL is the SearXNG instance, e.g. http://localhost:8888.
	URL string `json:"url,omitempty"`
}

// Check reports a webSearch setting that names no backend or lacks what
// its backend needs.
func (w WebSearch) Check() error {
	switch w.Provider {
	case "", WebSearchGemini, WebSearchOff:
	case WebSearchSearXNG:
		if w.URL == "" {
			return fmt.Errorf("webSearch: provider %q needs \"url\", the instance's address", w.Provider)
		}
	default:
		return fmt.Errorf("webSearch: unknown provider %q (want %q, %q or %q)", w.Provider, WebSearchGemini, WebSearchSearXNG, WebSearchOff)
	}
	return nil
}
