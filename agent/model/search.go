package model

import "context"

// Searcher is implemented by providers that can answer a question from a
// web search, with the sources they used (Gemini's Google Search
// grounding). The google_web_search tool is offered through it.
type Searcher interface {
	// Search asks model (the provider's default when empty) query and
	// returns the grounded answer. Failures are *APIError, or wrap
	// ctx.Err().
	Search(ctx context.Context, modelName, query string) (*SearchAnswer, error)
}

// SearchAnswer is a grounded answer: its text, the web sources it drew
// on, and which span of the text each set of sources supports.
type SearchAnswer struct {
	Text     string
	Sources  []SearchSource
	Supports []SearchSupport
	// Queries are the searches the model ran.
	Queries []string
}

// SearchSource is one web page an answer used.
type SearchSource struct {
	Title, URI string
}

// SearchSupport ties the bytes Text[Start:End] to Sources (indices into
// SearchAnswer.Sources).
type SearchSupport struct {
	Start, End int
	Sources    []int
}
