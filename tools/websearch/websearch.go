package websearch

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"strings"

	"companion/tools"
)

// Name is the tool's name, Gemini CLI's.
const Name = "google_web_search"

//go:embed descriptions/google_web_search.md
var description string

// Backend runs one search. Failures the user can act on (no key, quota,
// a blocked query) are errors whose text is one sentence.
type Backend interface {
	Search(ctx context.Context, query string) (*Answer, error)
}

// BackendFunc adapts a function to Backend.
type BackendFunc func(ctx context.Context, query string) (*Answer, error)

// Search calls f.
func (f BackendFunc) Search(ctx context.Context, query string) (*Answer, error) { return f(ctx, query) }

// Answer is what a search found: text, the sources it drew on, and which
// bytes of the text each set of sources supports.
type Answer struct {
	Text     string
	Sources  []Source
	Supports []Support
}

// Source is one web page.
type Source struct {
	Title string `json:"title"`
	URI   string `json:"uri"`
}

// Support ties the text's bytes [Start, End) to Sources (indices).
type Support struct {
	Start, End int
	Sources    []int
}

// params are google_web_search's parameters.
type params struct {
	Query string `json:"query" required:"true" desc:"The question or search terms."`
}

// Tool returns google_web_search over b.
func Tool(b Backend) tools.Tool {
	return tools.Define(tools.Def[params]{
		Name: Name, Kind: tools.KindFetch, Description: description,
		Prepare: func(_ *tools.Env, p params) (tools.Invocation, error) {
			q := strings.TrimSpace(p.Query)
			if q == "" {
				return nil, fmt.Errorf("%w: query must not be empty", tools.ErrInvalidArgs)
			}
			return &call{b: b, query: q}, nil
		},
	})
}

// call is one search.
type call struct {
	b     Backend
	query string
}

func (c *call) Title() string               { return "Search the web: " + c.query }
func (c *call) Locations() []tools.Location { return nil }

// Confirmation shows the query; "always" covers the tool, as for a fetch
// without URLs.
func (c *call) Confirmation(context.Context) (*tools.Confirmation, error) {
	return &tools.Confirmation{Type: tools.ConfirmInfo, Title: c.Title(), Prompt: "Search the web for: " + c.query}, nil
}

// Execute searches; a failed search is an error result of one sentence.
func (c *call) Execute(ctx context.Context, _ tools.Output) (*tools.Result, error) {
	a, err := c.b.Search(ctx, c.query)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil {
		return tools.ErrorResult(fmt.Sprintf("The web search for %q failed: %s", c.query, sentence(err))), nil
	}
	if a == nil || strings.TrimSpace(a.Text) == "" {
		return tools.ErrorResult(fmt.Sprintf("The web search for %q found nothing.", c.query)), nil
	}
	return result(c.query, a), nil
}

// sentence is err's text as one sentence.
func sentence(err error) string {
	var u interface{ Unwrap() []error }
	if errors.As(err, &u) && len(u.Unwrap()) > 0 {
		err = u.Unwrap()[0]
	}
	s := strings.TrimSpace(strings.SplitN(err.Error(), "\n", 2)[0])
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}
