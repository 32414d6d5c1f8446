package agent

import (
	"context"

	"companion/agent/hooks"
	"companion/agent/model"
)

// buildRequest assembles the next model request: system prompt, curated
// history and the tool declarations. For providers' prompt caching the
// request keeps a long stable prefix: the system prompt (see systemPrompt:
// built once, again only after a mode change or a memory reload) and the
// tools (sorted by name) come first; the history only grows (old outputs are masked
// on a coarse boundary, see maskSettled); what changes from request to
// request comes last: the editor context rides at the start of the newest
// user turn (withIDEContext), and the todo reminder after everything.
func (s *engine) buildRequest(ctx context.Context) (*model.Request, error) {
	system, err := s.systemPrompt(ctx)
	if err != nil {
		return nil, err
	}
	s.maybeCompress(ctx)
	contents := frameToolOutputs(s.dataNonce, maskSettled(s.curated()))
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

// maskStep is how many user turns the masking boundary moves at once.
const maskStep = 8

// maskSettled masks huge old function outputs (maskOldOutputs) on a
// boundary that moves maskStep user contents at a time instead of with
// every request. Masking rewrites history the model has already seen, and
// every rewrite ends the prefix a provider can serve from its cache; on a
// coarse boundary most consecutive requests keep the same prefix, at the
// cost of up to maskStep more unmasked outputs in the window.
func maskSettled(cs []model.Content) []model.Content {
	users := 0
	for _, c := range cs {
		if c.Role == model.RoleUser {
			users++
		}
	}
	settled := (users - 2) / maskStep * maskStep
	if settled <= 0 {
		return cs
	}
	// cut ends just after user content number settled+2, so that
	// maskOldOutputs, which spares the last two user contents it is
	// given, masks exactly the first settled ones.
	cut, seen := len(cs), 0
	for i, c := range cs {
		if c.Role == model.RoleUser {
			seen++
			if seen == settled+2 {
				cut = i + 1
				break
			}
		}
	}
	return append(maskOldOutputs(cs[:cut]), cs[cut:]...)
}
