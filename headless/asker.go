package headless

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"companion/agent"
	"companion/tools"
)

// sdkAsker asks the SDK about tool calls with can_use_tool. A timeout, an
// error answer or a malformed one refuses the call.
type sdkAsker struct {
	ctl  *control
	sr   *streamRun
	root string
}

// permissionAnswer is the SDK's answer to can_use_tool.
type permissionAnswer struct {
	Behavior           string          `json:"behavior"`
	UpdatedInput       json.RawMessage `json:"updatedInput"`
	UpdatedPermissions []any           `json:"updatedPermissions"`
	Message            string          `json:"message"`
	Interrupt          bool            `json:"interrupt"`
}

// Ask sends can_use_tool and maps the answer.
func (a *sdkAsker) Ask(ctx context.Context, q agent.Question) (agent.Answer, error) {
	raw, err := a.ctl.request(ctx, "can_use_tool", a.fields(q))
	if err != nil {
		if ctx.Err() != nil {
			return agent.Answer{Cancelled: true}, nil
		}
		return agent.Answer{}, err
	}
	var ans permissionAnswer
	if err := json.Unmarshal(raw, &ans); err != nil {
		return agent.Answer{}, fmt.Errorf("can_use_tool: the answer is not an object: %w", err)
	}
	switch ans.Behavior {
	case "allow":
		out := agent.Answer{OptionID: agent.ProceedOnce}
		if len(ans.UpdatedPermissions) > 0 {
			out.OptionID = agent.ProceedAlways
		}
		if len(ans.UpdatedInput) > 0 && string(ans.UpdatedInput) != "null" {
			out.UpdatedInput = ans.UpdatedInput
		}
		return out, nil
	case "deny":
		if ans.Interrupt {
			a.sr.rs.agent.Cancel()
		}
		return agent.Answer{OptionID: agent.RejectOnceID, Message: ans.Message}, nil
	}
	return agent.Answer{}, fmt.Errorf("can_use_tool: behavior %q is neither allow nor deny", ans.Behavior)
}

// fields are the can_use_tool request's fields.
func (a *sdkAsker) fields(q agent.Question) map[string]any {
	suggestions := make([]map[string]string, 0, len(q.Options))
	for _, o := range q.Options {
		suggestions = append(suggestions, map[string]string{"id": o.ID, "label": o.Label, "kind": string(o.Kind)})
	}
	var blocked *string
	if c := q.Confirm; c != nil && c.Type == tools.ConfirmEdit && !within(a.root, c.Path) {
		blocked = &c.Path
	}
	return map[string]any{"tool_name": q.Tool, "tool_use_id": q.CallID, "input": inputJSON(q.Input),
		"title": q.Title, "kind": string(q.Kind), "permission_suggestions": suggestions,
		"blocked_path": blocked, "confirmation": confirmation(q.Confirm)}
}

// within reports whether path is root or inside it.
func within(root, path string) bool {
	return path == root || strings.HasPrefix(path, strings.TrimSuffix(root, "/")+"/")
}

// confirmation is what the user would be shown, by type.
func confirmation(c *tools.Confirmation) map[string]any {
	if c == nil {
		return nil
	}
	out := map[string]any{"type": string(c.Type), "title": c.Title}
	switch c.Type {
	case tools.ConfirmEdit:
		out["path"], out["new_text"] = c.Path, c.NewText
		if c.OldText != nil {
			out["old_text"] = *c.OldText
		}
		if len(c.More) > 0 { // the other files of a multi-file edit
			more := make([]map[string]any, 0, len(c.More))
			for _, d := range c.More {
				m := map[string]any{"path": d.Path, "new_text": d.NewText}
				if d.OldText != nil {
					m["old_text"] = *d.OldText
				}
				more = append(more, m)
			}
			out["more"] = more
		}
	case tools.ConfirmExec:
		out["command"], out["cwd"], out["root_commands"] = c.Command, c.Dir, c.RootCommands
	case tools.ConfirmMCP:
		out["server"], out["tool"], out["arguments"] = c.Server, c.Tool, c.Arguments
	case tools.ConfirmInfo:
		out["prompt"], out["urls"] = c.Prompt, c.URLs
	}
	return out
}
