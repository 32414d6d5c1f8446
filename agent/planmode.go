package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"companion/tools"
)

// Names of the session's plan-mode tools.
const (
	exitPlanName  = "exit_plan_mode"
	enterPlanName = "enter_plan_mode"
)

// Option ids of the plan cards.
const (
	PlanAcceptEdits = "plan_accept_edits"
	PlanAskEdits    = "plan_ask_edits"
	PlanKeep        = "plan_keep"
	PlanEnter       = "plan_enter"
	PlanStay        = "plan_stay"
)

// planTool is exit_plan_mode (enter false) or enter_plan_mode (enter
// true): the model asks the user to leave plan mode with a plan, or to
// enter it before a large or risky task. Both are always offered, so the
// tool list (and the model's prompt cache) stays the same across modes;
// a call in the wrong mode is refused with a result that says so. The
// user's answer comes through the permission flow (permitPlan), so every
// front end that answers permissions answers these.
type planTool struct {
	s     *Session
	enter bool
}

func (t *planTool) Name() string {
	if t.enter {
		return enterPlanName
	}
	return exitPlanName
}

func (t *planTool) Kind() tools.Kind { return tools.KindSwitchMode }

func (t *planTool) Description() string {
	if t.enter {
		return "Ask the user to switch to plan mode before a large, multi-step or risky change whose approach is not settled: you then only read and search, and present a plan with exit_plan_mode for approval. Not for small or clear tasks, and not while already in plan mode."
	}
	return "In plan mode, present your finished plan for the user's approval. The plan is markdown: the goal, then the steps as a list (\"1. step\" or \"- step\"), the files to change, and how to verify. The user starts the work (with edits accepted automatically or asked one by one) or keeps you planning with a note. On approval the list items become your todo list and you go on implementing. Only in plan mode; call it once the plan is complete, not to ask questions."
}

func (t *planTool) Schema() json.RawMessage {
	if t.enter {
		return json.RawMessage(`{"type":"object","properties":{"reason":{"type":"string","description":"Why planning first helps, in one or two sentences."}},"required":["reason"]}`)
	}
	return json.RawMessage(`{"type":"object","properties":{"plan":{"type":"string","description":"The plan in markdown, with the steps as a list."}},"required":["plan"]}`)
}

func (t *planTool) Prepare(_ *tools.Env, args json.RawMessage) (tools.Invocation, error) {
	var p struct{ Plan, Reason string }
	if err := json.Unmarshal(args, &p); err != nil {
		return nil, tools.ArgErrorf("arguments must be an object: %v", err)
	}
	text := strings.TrimSpace(p.Plan)
	if t.enter {
		text = strings.TrimSpace(p.Reason)
	}
	if text == "" && !t.enter {
		return nil, tools.ArgErrorf("missing required parameter \"plan\"")
	}
	return &planCall{t: t, text: text}, nil
}

// planCall is one exit_plan_mode or enter_plan_mode call. permitPlan
// sets mode, the mode the user chose, before Execute runs.
type planCall struct {
	t    *planTool
	text string
	mode string
}

func (c *planCall) Title() string {
	if c.t.enter {
		return "Switch to plan mode"
	}
	return "Ready to start: approve the plan"
}

func (c *planCall) Locations() []tools.Location { return nil }

// Confirmation shows the plan (or the reason to plan) on the card.
func (c *planCall) Confirmation(context.Context) (*tools.Confirmation, error) {
	return &tools.Confirmation{Type: tools.ConfirmInfo, Title: c.Title(), Prompt: c.text, OnceOnly: true}, nil
}

// Execute switches to the mode the user chose; leaving plan mode also
// turns the plan's list items into the todo list.
func (c *planCall) Execute(ctx context.Context, _ tools.Output) (*tools.Result, error) {
	s := c.t.s
	if c.mode == "" {
		return tools.ErrorResult("The user's choice was not recorded; the mode did not change."), nil
	}
	s.setModeAndAnnounce(ctx, c.mode)
	if c.t.enter {
		return &tools.Result{Text: "The user agreed: the session is now in plan mode. Read and search to understand the task, then present the plan with exit_plan_mode."}, nil
	}
	todos := planTodos(c.text)
	if len(todos) > 0 {
		s.setPlan(ctx, todos)
	}
	how := "edits are applied without asking; commands still ask"
	if c.mode == ModeDefault {
		how = "each edit and command asks the user first"
	}
	text := fmt.Sprintf("The user approved the plan. The session is now in %s mode (%s). ", c.mode, how)
	if len(todos) > 0 {
		text += fmt.Sprintf("Its %d steps are your todo list; keep it current with write_todos. ", len(todos))
	}
	return &tools.Result{Text: text + "Start implementing the plan now."}, nil
}

// planItem matches one markdown list item at any indent: "- step",
// "* step", "+ step", "1. step", "2) step", with an optional task box
// "[ ]" or "[x]".
var planItem = regexp.MustCompile(`^\s*(?:[-*+]|\d+[.)])\s+(?:\[([ xX])\]\s+)?(.+?)\s*$`)

// planTodos turns the list items of a plan in markdown into todo
// entries, in order: checked boxes are completed, the rest pending.
// Lines inside fenced code blocks are skipped.
func planTodos(plan string) []tools.PlanEntry {
	var out []tools.PlanEntry
	fenced := false
	for line := range strings.Lines(plan) {
		if t := strings.TrimSpace(line); strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fenced = !fenced
			continue
		}
		m := planItem.FindStringSubmatch(line)
		if fenced || m == nil {
			continue
		}
		status := "pending"
		if strings.EqualFold(m[1], "x") {
			status = "completed"
		}
		out = append(out, tools.PlanEntry{Content: m[2], Priority: "medium", Status: status})
	}
	return out
}
