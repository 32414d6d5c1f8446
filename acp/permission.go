package acp

import (
	"context"

	"companion/agent"
)

// asker asks the editor about tool calls with session/request_permission.
// The tool_call card went out before (ToolCallStarted); the request repeats
// its title, kind, content and locations, as several clients render from it.
type asker struct {
	client *Client
}

// Ask implements agent.Asker.
func (a *asker) Ask(ctx context.Context, q agent.Question) (agent.Answer, error) {
	call := ToolCallUpdate{ToolCallID: ToolCallID(q.CallID), Title: q.Title, Name: q.Tool,
		Kind: ToolKind(q.Kind), Status: ToolCallStatusPending, Content: confirmContent(q.Confirm),
		Locations: locations(q.Locations), RawInput: q.Input}
	opts := make([]PermissionOption, 0, len(q.Options))
	for _, o := range q.Options {
		opts = append(opts, PermissionOption{OptionID: PermissionOptionID(o.ID), Name: o.Label, Kind: PermissionOptionKind(o.Kind)})
	}
	resp, err := a.client.RequestPermission(ctx, call, opts)
	if err != nil {
		return agent.Answer{}, err
	}
	sel := resp.Outcome.Selected
	if sel == nil {
		return agent.Answer{Cancelled: true}, nil
	}
	ans := agent.Answer{OptionID: string(sel.OptionID)}
	ans.Message = answerMeta(sel.Meta, "message")
	if ans.Message == "" {
		ans.Message = answerMeta(resp.Meta, "message")
	}
	if text, ok := modifiedContent(resp.Meta); ok {
		ans.ModifiedContent = &text
	} else if text, ok := modifiedContent(sel.Meta); ok {
		ans.ModifiedContent = &text
	}
	return ans, nil
}

// answerMeta reads a string of companion's extensions to a permission
// answer, _meta.companion.<key>: "message" is the user's note with a
// refusal or "keep planning", passed on to the model.
func answerMeta(meta map[string]any, key string) string {
	ours, _ := meta["companion"].(map[string]any)
	text, _ := ours[key].(string)
	return text
}

// modifiedContent reads companion's modify-with-editor extension:
// _meta.companion.modifiedContent, the text the user left in the diff.
func modifiedContent(meta map[string]any) (string, bool) {
	ours, _ := meta["companion"].(map[string]any)
	text, ok := ours["modifiedContent"].(string)
	return text, ok
}
