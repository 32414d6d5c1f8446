package agent

import (
	"context"

	"companion/agent/model"
)

// buildRequest assembles the next model request: system prompt, curated
// history and the tool declarations.
func (s *Session) buildRequest(ctx context.Context) (*model.Request, error) {
	system, err := s.systemPrompt(ctx)
	if err != nil {
		return nil, err
	}
	req := &model.Request{Model: s.ModelName(), System: system, Contents: s.curated()}
	for _, t := range s.opts.Tools.All() {
		req.Tools = append(req.Tools, model.ToolDecl{
			Name: t.Name(), Description: t.Description(), Parameters: t.Schema()})
	}
	return req, nil
}
