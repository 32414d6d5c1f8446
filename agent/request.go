package agent

import (
	"context"

	"companion/agent/hooks"
	"companion/agent/model"
)

// buildRequest assembles the next model request: system prompt, curated
// history and the tool declarations.
func (s *Session) buildRequest(ctx context.Context) (*model.Request, error) {
	system, err := s.systemPrompt(ctx)
	if err != nil {
		return nil, err
	}
	s.maybeCompress(ctx)
	contents := frameToolOutputs(s.dataNonce, maskOldOutputs(s.curated()))
	req := &model.Request{Model: s.ModelName(), System: system, Contents: contents,
		ThinkingBudget: s.thinkingBudget()}
	if note := s.reminder(); note != "" {
		// Ephemeral: the note rides on this request only, never in history.
		req.Contents = append(req.Contents, contentText(note))
		req.Contents = curate(req.Contents)
	}
	s.waitMCP(ctx)
	if s.opts.Hooks.Has(hooks.BeforeToolSelection) {
		var names []string
		for _, t := range s.allTools() {
			names = append(names, t.Name())
		}
		s.hook(ctx, hooks.BeforeToolSelection, "", map[string]any{"tools": names})
	}
	for _, t := range s.allTools() {
		req.Tools = append(req.Tools, model.ToolDecl{
			Name: t.Name(), Description: t.Description(), Parameters: t.Schema()})
	}
	return req, nil
}
