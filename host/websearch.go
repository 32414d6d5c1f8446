package host

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"

	"companion/agent"
	"companion/agent/model"
	"companion/agent/model/gemini"
	"companion/config"
	"companion/tools/websearch"
)

// addWebSearch offers google_web_search in opts when cfg and m give it a
// backend; a webSearch setting that cannot work is a notice, not silence.
func addWebSearch(opts *agent.Options, cfg config.Config, m model.Model, log *slog.Logger) {
	b, err := webSearchBackend(cfg, m, log)
	if err != nil {
		opts.Notices = append(opts.Notices, agent.Notice{Level: "warning", Text: "No web search: " + err.Error()})
		return
	}
	if b != nil && opts.Tools != nil {
		if err := opts.Tools.Add(websearch.Tool(b)); err != nil {
			log.Warn("web search tool not added", "err", err)
		}
	}
}

// webSearchBackend is the backend google_web_search uses in a session on
// m with cfg, or nil when there is none (the tool is then not offered):
// the webSearch setting's when it names one, else the session's Gemini
// provider's own grounding.
func webSearchBackend(cfg config.Config, m model.Model, log *slog.Logger) (websearch.Backend, error) {
	ws := cfg.WebSearch
	switch ws.Provider {
	case config.WebSearchOff:
		return nil, nil
	case config.WebSearchSearXNG:
		return websearch.SearXNG(ws.URL, nil)
	case config.WebSearchGemini:
		if ws.APIKey != "" || ws.BaseURL != "" || cfg.Provider == config.ProviderOpenAI {
			key := cmp.Or(ws.APIKey, cfg.APIKey)
			p, err := gemini.New(context.Background(), gemini.Config{APIKey: key, BaseURL: ws.BaseURL, Logger: log,
				Retry: retryPolicy(cfg.Retry)})
			if err != nil {
				return nil, fmt.Errorf("webSearch: Gemini searches need a key (webSearch.apiKey or GEMINI_API_KEY): %w", err)
			}
			return grounded(p, ws.Model), nil
		}
	}
	if s, ok := m.(model.Searcher); ok && cfg.Provider != config.ProviderOpenAI {
		return grounded(s, ws.Model), nil
	}
	return nil, nil
}

// grounded adapts a model's grounded search to the tool's backend.
func grounded(s model.Searcher, modelName string) websearch.Backend {
	return websearch.BackendFunc(func(ctx context.Context, query string) (*websearch.Answer, error) {
		a, err := s.Search(ctx, modelName, query)
		if err != nil {
			return nil, err
		}
		out := &websearch.Answer{Text: a.Text}
		for _, src := range a.Sources {
			out.Sources = append(out.Sources, websearch.Source{Title: src.Title, URI: src.URI})
		}
		for _, sp := range a.Supports {
			out.Supports = append(out.Supports, websearch.Support{Start: sp.Start, End: sp.End, Sources: sp.Sources})
		}
		return out, nil
	})
}
