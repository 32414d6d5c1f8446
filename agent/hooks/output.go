package hooks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Decision is what a hook says about the action it was asked about.
type Decision string

// Decisions, from least to most restrictive. The empty Decision means no
// hook decided: the agent's own policy applies.
const (
	// Allow lets the action run without asking the user.
	Allow Decision = "allow"
	// Ask has the agent ask the user even where its policy would not.
	Ask Decision = "ask"
	// Deny refuses the action; Reason says why (for the model and user).
	Deny Decision = "deny"
	// Block refuses the action like Deny; exit status 2 gives it.
	Block Decision = "block"
)

// rank orders decisions by restriction: the highest wins.
func (d Decision) rank() int {
	switch d {
	case Allow:
		return 1
	case Ask:
		return 2
	case Deny, Block:
		return 3
	}
	return 0
}

// parseDecision reads a decision as hooks write it ("approve" is Claude
// Code's older word for allow).
func parseDecision(s string) (Decision, error) {
	switch d := Decision(strings.ToLower(strings.TrimSpace(s))); d {
	case "", Allow, Ask, Deny, Block:
		return d, nil
	case "approve":
		return Allow, nil
	}
	return "", fmt.Errorf("%w: unknown decision %q (want allow, ask, deny or block)", ErrBadOutput, s)
}

// answer is one hook's reply.
type answer struct {
	decision   Decision
	reason     string
	message    string
	context    string
	stop       bool
	stopReason string
	suppress   bool
	toolInput  map[string]any
}

// wireAnswer is the JSON a hook may print, in Gemini CLI's and Claude
// Code's spellings.
type wireAnswer struct {
	Decision                 string        `json:"decision"`
	PermissionDecision       string        `json:"permissionDecision"`
	Reason                   string        `json:"reason"`
	PermissionDecisionReason string        `json:"permissionDecisionReason"`
	SystemMessage            string        `json:"systemMessage"`
	Continue                 *bool         `json:"continue"`
	StopReason               string        `json:"stopReason"`
	SuppressOutput           bool          `json:"suppressOutput"`
	HookSpecificOutput       *wireSpecific `json:"hookSpecificOutput"`
}

// wireSpecific is the event-specific part of a hook's JSON answer.
type wireSpecific struct {
	PermissionDecision       string         `json:"permissionDecision"`
	PermissionDecisionReason string         `json:"permissionDecisionReason"`
	ToolInput                map[string]any `json:"tool_input"`
	UpdatedInput             map[string]any `json:"updatedInput"`
	AdditionalContext        string         `json:"additionalContext"`
}

// parseAnswer reads what a hook printed on stdout after exiting with
// status 0. Output that does not start with '{' is a plain message with no
// decision; output that does must be a valid answer.
func parseAnswer(stdout []byte) (answer, error) {
	text := bytes.TrimSpace(stdout)
	if len(text) == 0 {
		return answer{}, nil
	}
	if text[0] != '{' {
		return answer{message: string(text)}, nil
	}
	var w wireAnswer
	if err := json.Unmarshal(text, &w); err != nil {
		return answer{}, fmt.Errorf("%w: %w", ErrBadOutput, err)
	}
	spec := w.HookSpecificOutput
	if spec == nil {
		spec = &wireSpecific{}
	}
	d, err := parseDecision(first(w.Decision, w.PermissionDecision, spec.PermissionDecision))
	if err != nil {
		return answer{}, err
	}
	a := answer{
		decision:   d,
		reason:     first(w.Reason, w.PermissionDecisionReason, spec.PermissionDecisionReason),
		message:    w.SystemMessage,
		context:    spec.AdditionalContext,
		stop:       w.Continue != nil && !*w.Continue,
		stopReason: w.StopReason,
		suppress:   w.SuppressOutput,
		toolInput:  spec.ToolInput,
	}
	if a.toolInput == nil {
		a.toolInput = spec.UpdatedInput
	}
	return a, nil
}

// first returns the first non-empty string.
func first(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// Outcome is what the hooks of one event said together.
type Outcome struct {
	// Decision is the most restrictive decision any hook gave (deny and
	// block over ask over allow); empty when none gave one.
	Decision Decision
	// Reason is the reasons given with that decision, one per line.
	Reason string
	// SystemMessage is the hooks' messages for the user (their
	// systemMessage, or their plain-text stdout), one per line.
	SystemMessage string
	// AdditionalContext is text hooks asked to add to the model's context
	// (hookSpecificOutput.additionalContext), one per line.
	AdditionalContext string
	// Stop is set when a hook answered "continue": false: the agent should
	// end the turn, showing StopReason.
	Stop bool
	// StopReason is why, as the hook put it.
	StopReason string
	// SuppressOutput is set when a hook asked for its output to stay out
	// of the transcript.
	SuppressOutput bool
	// ToolInput is the replacement tool input of a BeforeTool event after
	// every hook had its say (each sees the previous one's); nil when no
	// hook replaced it.
	ToolInput map[string]any
	// Errors are the hooks that failed (timed out, crashed, printed an
	// invalid answer), each a *HookError. They decide nothing; the agent
	// shows them and goes on.
	Errors []error
}

// add folds one hook's answer into the outcome.
func (o *Outcome) add(a answer) {
	switch r := a.decision.rank(); {
	case r > o.Decision.rank():
		o.Decision, o.Reason = a.decision, a.reason
	case r > 0 && r == o.Decision.rank():
		o.Reason = joinLine(o.Reason, a.reason)
	}
	o.SystemMessage = joinLine(o.SystemMessage, a.message)
	o.AdditionalContext = joinLine(o.AdditionalContext, a.context)
	if a.stop {
		o.Stop = true
		o.StopReason = joinLine(o.StopReason, a.stopReason)
	}
	o.SuppressOutput = o.SuppressOutput || a.suppress
}

// joinLine appends s to text on a line of its own; empty s changes
// nothing.
func joinLine(text, s string) string {
	switch {
	case s == "":
		return text
	case text == "":
		return s
	}
	return text + "\n" + s
}
