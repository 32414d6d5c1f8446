package gemini

import (
	"context"
	"errors"
	"strings"

	"google.golang.org/genai"

	"companion/agent/model"
)

// DefaultSearchModel answers searches when the caller names no model: a
// fast model with Google Search grounding.
const DefaultSearchModel = "gemini-2.5-flash"

var _ model.Searcher = (*Provider)(nil)

// errNoAnswer is a grounded request that came back without any text.
var errNoAnswer = errors.New("the search returned no answer")

// Search asks modelName query with Google Search grounding and returns the
// answer with its sources. Offsets of the supports are bytes into the
// answer's text, whichever part they were given for.
func (p *Provider) Search(ctx context.Context, modelName, query string) (*model.SearchAnswer, error) {
	if modelName == "" {
		modelName = DefaultSearchModel
	}
	client, err := p.genaiClient(ctx)
	if err != nil {
		return nil, err
	}
	contents := []*genai.Content{genai.NewContentFromText(query, genai.RoleUser)}
	config := &genai.GenerateContentConfig{Tools: []*genai.Tool{{GoogleSearch: &genai.GoogleSearch{}}}}
	var resp *genai.GenerateContentResponse
	err = p.do(ctx, modelName, func(ctx context.Context) (bool, error) {
		r, err := client.Models.GenerateContent(ctx, modelName, contents, config)
		resp = r
		return false, err
	})
	if err != nil {
		return nil, err
	}
	return searchAnswer(resp)
}

// searchAnswer reads the first candidate's text and grounding. A blocked
// prompt or an empty answer is an error the tool reports as one sentence.
func searchAnswer(resp *genai.GenerateContentResponse) (*model.SearchAnswer, error) {
	if resp.PromptFeedback != nil && resp.PromptFeedback.BlockReason != "" {
		return nil, &model.APIError{Message: "The search was blocked (" + string(resp.PromptFeedback.BlockReason) + ")."}
	}
	if len(resp.Candidates) == 0 || resp.Candidates[0].Content == nil {
		return nil, &model.APIError{Message: "The search returned no answer.", Err: errNoAnswer}
	}
	c := resp.Candidates[0]
	if c.FinishReason == genai.FinishReasonSafety {
		return nil, &model.APIError{Message: "The search answer was withheld for safety."}
	}
	var text strings.Builder
	starts := make([]int, len(c.Content.Parts)) // each part's offset in text
	for i, part := range c.Content.Parts {
		starts[i] = text.Len()
		if !part.Thought {
			text.WriteString(part.Text)
		}
	}
	a := &model.SearchAnswer{Text: text.String()}
	if strings.TrimSpace(a.Text) == "" {
		return nil, &model.APIError{Message: "The search returned no answer.", Err: errNoAnswer}
	}
	if g := c.GroundingMetadata; g != nil {
		a.Queries = g.WebSearchQueries
		a.Sources = sources(g.GroundingChunks)
		a.Supports = supports(g.GroundingSupports, starts, len(a.Text))
	}
	return a, nil
}

// sources are the web chunks' titles and URIs, in their order (supports
// index them); a chunk that is not a web page keeps its place, empty.
func sources(chunks []*genai.GroundingChunk) []model.SearchSource {
	out := make([]model.SearchSource, len(chunks))
	for i, ch := range chunks {
		if ch != nil && ch.Web != nil {
			out[i] = model.SearchSource{Title: ch.Web.Title, URI: ch.Web.URI}
		}
	}
	return out
}

// supports converts the segments to offsets into the joined text, dropping
// those that point outside it.
func supports(ss []*genai.GroundingSupport, starts []int, size int) []model.SearchSupport {
	var out []model.SearchSupport
	for _, s := range ss {
		if s == nil || s.Segment == nil || len(s.GroundingChunkIndices) == 0 {
			continue
		}
		base := 0
		if pi := int(s.Segment.PartIndex); pi >= 0 && pi < len(starts) {
			base = starts[pi]
		}
		start, end := base+int(s.Segment.StartIndex), base+int(s.Segment.EndIndex)
		if start < 0 || end > size || start > end {
			continue
		}
		idx := make([]int, len(s.GroundingChunkIndices))
		for i, n := range s.GroundingChunkIndices {
			idx[i] = int(n)
		}
		out = append(out, model.SearchSupport{Start: start, End: end, Sources: idx})
	}
	return out
}
