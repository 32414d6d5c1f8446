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
	resp, err := a.client.RequestPermission(ctx, call, permissionOptions(q.Options))
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

func permissionOptions(in []agent.Option) []PermissionOption {
	opts := make([]PermissionOption, 0, len(in))
	for _, o := range in {
		opts = append(opts, PermissionOption{OptionID: PermissionOptionID(o.ID), Name: o.Label, Kind: PermissionOptionKind(o.Kind)})
	}
	return opts
}

// answeredUpdate is a replayed permission answer (ACP has no update for
// one): a tool_call_update of the call that changes nothing ACP defines,
// with _meta.companion.permission = {"title", "options", "optionId"}
// (optionId absent when the question was dismissed or cancelled).
func answeredUpdate(a agent.PermissionAnswered) SessionUpdate {
	perm := map[string]any{"title": a.Title, "options": permissionOptions(a.Options)}
	if a.OptionID != "" {
		perm["optionId"] = a.OptionID
	}
	return SessionUpdate{ToolCallUpdate: &ToolCallUpdate{ToolCallID: ToolCallID(a.CallID),
		Meta: map[string]any{"companion": map[string]any{"permission": perm}}}}
}

// turnEndUpdate is a replayed turn end that was not the model's plain end
// (ACP says it only in the prompt's answer): a session_info_update that
// changes nothing ACP defines, with _meta.companion.turnEnd =
// {"stopReason", "error"} (error absent when there was none).
func turnEndUpdate(e agent.TurnEnded) SessionUpdate {
	end := map[string]any{"stopReason": string(e.Stop)}
	if e.Error != "" {
		end["error"] = e.Error
	}
	return SessionUpdate{SessionInfoUpdate: &SessionInfoUpdate{Meta: map[string]any{"companion": map[string]any{"turnEnd": end}}}}
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
