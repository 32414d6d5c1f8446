package headless

import (
	"fmt"
	"time"

	"companion/agent"
)

// Result subtypes.
const (
	resultSuccess     = "success"
	resultMaxTurns    = "error_max_turns"
	resultError       = "error_during_execution"
	resultInterrupted = "error_interrupted"
)

// outcome is how one prompt ended.
type outcome struct {
	stop    agent.StopReason
	err     error
	started time.Time
	// before and after are the session's totals around the prompt, and
	// beforeModels and afterModels its use per model.
	before, after             agent.Totals
	beforeModels, afterModels map[string]agent.ModelUse
}

// duration is the time since the outcome's start; 0 when it has none.
func (o outcome) duration() time.Duration {
	if o.started.IsZero() {
		return 0
	}
	return time.Since(o.started)
}

// subtype names the outcome for the result line.
func (o outcome) subtype() string {
	switch {
	case o.err != nil:
		return resultError
	case o.stop == agent.MaxTurnRequests:
		return resultMaxTurns
	case o.stop == agent.Cancelled:
		return resultInterrupted
	}
	return resultSuccess
}

// failed reports whether the prompt counts as failed for the exit code.
func (o outcome) failed() bool {
	return o.err != nil || o.stop == agent.MaxTurnRequests || o.stop == agent.Refusal
}

// finalStop is the last message's stop reason, as SDKs name them.
func finalStop(s agent.StopReason) string {
	switch s {
	case agent.MaxTokens:
		return "max_tokens"
	case agent.Refusal:
		return "refusal"
	case agent.MaxTurnRequests, agent.Cancelled:
		return string(s)
	}
	return "end_turn"
}

// finish writes the prompt's result and starts a new turn log. It returns
// the result written.
func (r *reporter) finish(o outcome) resultLine {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.flushLocked(finalStop(o.stop))
	res := resultLine{envelope: envelope{Type: typeResult, Subtype: o.subtype(), UUID: newUUID(), SessionID: r.session},
		IsError: o.subtype() != resultSuccess, Result: r.turn.text.String(), StopReason: string(o.stop),
		NumTurns: o.after.Requests - o.before.Requests, DurationMS: o.duration().Milliseconds(),
		DurationAPIMS: (o.after.APITime - o.before.APITime).Milliseconds(), Usage: usageOf(o.after.Tokens.Sub(o.before.Tokens)),
		PermissionDenials: r.turn.denials, Errors: []string{}}
	if res.PermissionDenials == nil {
		res.PermissionDenials = []denial{}
	}
	if o.err != nil {
		res.Errors = append(res.Errors, o.err.Error())
		if res.StopReason == "" {
			res.StopReason = "error"
		}
	}
	switch r.format {
	case formatStream:
		r.lines.write(res)
	case formatJSON:
		res.ToolCalls = r.turn.calls
		if res.ToolCalls == nil {
			res.ToolCalls = []toolCallRecord{}
		}
		addGeminiFields(&res, o)
		r.lines.write(res)
	case formatGeminiStream:
		r.geminiResult(o, finishedCalls(r.turn.calls))
	case formatText:
		r.textEnd(o)
	}
	r.turn = turnLog{}
	return res
}

// finishedCalls counts the calls that completed or failed.
func finishedCalls(calls []toolCallRecord) int {
	n := 0
	for _, c := range calls {
		if c.Status == string(agent.ToolCompleted) || c.Status == string(agent.ToolFailed) {
			n++
		}
	}
	return n
}

// textEnd ends a text answer with a newline and reports failures on
// stderr.
func (r *reporter) textEnd(o outcome) {
	if t := r.turn.text.String(); t != "" && t[len(t)-1] != '\n' {
		fmt.Fprintln(r.stdout)
	}
	switch {
	case o.err != nil:
		fmt.Fprintf(r.stderr, "companion: %v\n", o.err)
	case o.stop == agent.MaxTurnRequests:
		fmt.Fprintln(r.stderr, "companion: stopped: the prompt reached its limit of model requests (--max-turns)")
	case o.stop == agent.Cancelled:
		fmt.Fprintln(r.stderr, "companion: interrupted")
	case o.stop == agent.Refusal:
		fmt.Fprintln(r.stderr, "companion: the model refused to answer")
	}
}
