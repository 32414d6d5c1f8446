package agent

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"companion/agent/model"
	"companion/tools"
)

// Telemetry observes what a session does, for export (the telemetry
// package implements it over OpenTelemetry; the host sets it only when
// the user enabled telemetry, so a session without it pays one nil check
// per step). Each Start method returns the context the step runs in (so
// what it starts nests under it) and a function that ends the step; none
// may block for long: they sit on the turn's path.
type Telemetry interface {
	// StartTurn begins a prompt turn.
	StartTurn(ctx context.Context, t TurnStart) (context.Context, func(TurnEnd))
	// StartModelRequest begins one model request.
	StartModelRequest(ctx context.Context, modelName string) (context.Context, func(ModelEnd))
	// StartToolCall begins one tool call.
	StartToolCall(ctx context.Context, c ToolStart) (context.Context, func(ToolEnd))
	// StartStep begins a step of another kind: a hook ("hook", name is
	// the event), a compression ("compression"), the call of an MCP
	// server's tool ("mcp", name is the tool).
	StartStep(ctx context.Context, kind, name string) (context.Context, func(err error))
	// Record notes something that happened (see the Tel* names).
	Record(ctx context.Context, name string, attrs map[string]string)
}

// Things a session records through Telemetry.Record.
const (
	// TelLoopDetected is a loop the session caught ("what" says which).
	TelLoopDetected = "loop_detected"
	// TelModelFallback is a switch of model ("from", "to", "reason").
	TelModelFallback = "model_fallback"
	// TelPermissionAnswer is a decision about a tool call ("tool",
	// "decision", "by").
	TelPermissionAnswer = "permission_answer"
)

// TurnStart describes a prompt turn as it begins. Prompt is the user's
// text; the observer exports it only when told to.
type TurnStart struct {
	SessionID string
	Depth     int
	Prompt    string
}

// TurnEnd is how a prompt turn ended.
type TurnEnd struct {
	Stop StopReason
	Err  error
}

// ModelEnd is how one model request ended.
type ModelEnd struct {
	Usage   *model.Usage
	Finish  model.FinishReason
	Retries int
	Took    time.Duration
	Err     error
}

// ToolStart describes a tool call as it begins. Args are the model's
// arguments; the observer exports them only when told to.
type ToolStart struct {
	ID, Name string
	Kind     tools.Kind
	Args     json.RawMessage
}

// ToolEnd is how a tool call ended. Decision is "approved" or "denied"
// ("" when none was needed); DecidedBy is "policy", "mode", "user" or
// "hook".
type ToolEnd struct {
	Decision, DecidedBy string
	Failed              bool
	OutputBytes         int
	Took                time.Duration
}

// telemetryHooks is the session's nil-safe side of Telemetry: it keeps
// the permission decisions of the calls in flight, and the compressions
// started, until their spans end.
type telemetryHooks struct {
	t         Telemetry
	mu        sync.Mutex
	decisions map[string][2]string
	compress  map[string]func(error)
}

func (h *telemetryHooks) on() bool { return h != nil && h.t != nil }

// decided notes what was decided about call id, and by whom.
func (h *telemetryHooks) decided(id, state, by string) {
	if !h.on() || (state != "approved" && state != "denied") {
		return
	}
	if len(by) > 5 && by[:5] == "user:" {
		by = "user"
	}
	h.mu.Lock()
	if h.decisions == nil {
		h.decisions = map[string][2]string{}
	}
	h.decisions[id] = [2]string{state, by}
	h.mu.Unlock()
}

// decision takes the decision noted for call id.
func (h *telemetryHooks) decision(id string) (string, string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	d := h.decisions[id]
	delete(h.decisions, id)
	return d[0], d[1]
}

// event watches the session's events for what they tell telemetry: a
// model switch, a compression starting and ending.
func (h *telemetryHooks) event(ctx context.Context, ev Event) {
	switch e := ev.(type) {
	case ModelChanged:
		h.t.Record(ctx, TelModelFallback, map[string]string{"from": e.Previous, "to": e.Name, "reason": e.Reason})
	case CompactionUpdated:
		h.compaction(ctx, e)
	}
}

func (h *telemetryHooks) compaction(ctx context.Context, e CompactionUpdated) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if e.Status == "in_progress" {
		if h.compress == nil {
			h.compress = map[string]func(error){}
		}
		_, end := h.t.StartStep(ctx, "compression", "compression")
		h.compress[e.ID] = end
		return
	}
	if end, ok := h.compress[e.ID]; ok {
		delete(h.compress, e.ID)
		var err error
		if e.Status == "failed" {
			err = compressionFailed(e.Error)
		}
		end(err)
	}
}

// compressionFailed is a compression's failure as an error.
type compressionFailed string

func (e compressionFailed) Error() string { return string(e) }

// promptText is the text of a prompt's parts.
func promptText(parts []model.Part) string {
	n := 0
	for _, p := range parts {
		n += len(p.Text)
	}
	b := make([]byte, 0, n)
	for _, p := range parts {
		b = append(b, p.Text...)
	}
	return string(b)
}

// record is Telemetry.Record when telemetry is on.
func (h *telemetryHooks) record(ctx context.Context, name string, attrs map[string]string) {
	if h.on() {
		h.t.Record(ctx, name, attrs)
	}
}

// modelSpan is a model request being observed; nil when telemetry is off.
type modelSpan struct {
	finish  func(ModelEnd)
	retries *atomic.Int32
	start   time.Time
}

// startModelSpan begins observing a model request: its span, and the
// retries the provider makes (model.WithRetryCounter).
func (s *engine) startModelSpan(ctx context.Context, modelName string) (context.Context, *modelSpan) {
	if s.tel == nil {
		return ctx, nil
	}
	ms := &modelSpan{retries: new(atomic.Int32), start: time.Now()}
	ctx, ms.finish = s.tel.t.StartModelRequest(ctx, modelName)
	return model.WithRetryCounter(ctx, ms.retries), ms
}

// end ends the request's span, filling in retries and the time taken.
func (ms *modelSpan) end(e ModelEnd) {
	if ms == nil {
		return
	}
	e.Retries, e.Took = int(ms.retries.Load()), time.Since(ms.start)
	ms.finish(e)
}

// noStep ends nothing: a step's span when telemetry is off.
func noStep(error) {}

// startMCPSpan begins observing the call of an MCP server's tool, under
// the tool call's span; other tools get none.
func (s *engine) startMCPSpan(ctx context.Context, p *prepared) (context.Context, func(error)) {
	if s.tel == nil || s.opts.MCP == nil {
		return ctx, noStep
	}
	if !slices.ContainsFunc(s.opts.MCP.Tools(), func(t tools.Tool) bool { return t.Name() == p.fc.Name }) {
		return ctx, noStep
	}
	return s.tel.t.StartStep(ctx, "mcp", p.fc.Name)
}

// noToolSpan ends nothing: the tool span when telemetry is off.
func noToolSpan(*prepared, time.Duration) {}

// startToolSpan begins observing a tool call; the function it returns
// ends the span once the call has its result (took is 0 when it has
// none: the turn was cancelled).
func (s *engine) startToolSpan(ctx context.Context, p *prepared) (context.Context, func(*prepared, time.Duration)) {
	if s.tel == nil {
		return ctx, noToolSpan
	}
	st := ToolStart{ID: p.id, Name: p.fc.Name, Kind: tools.KindOther, Args: p.input()}
	if p.tool != nil {
		st.Kind = p.tool.Kind()
	}
	ctx, finish := s.tel.t.StartToolCall(ctx, st)
	return ctx, func(p *prepared, took time.Duration) {
		e := ToolEnd{Took: took, Failed: p.res == nil || p.res.IsError}
		e.Decision, e.DecidedBy = s.tel.decision(p.id)
		if e.Decision == "" && p.refusal != "" {
			e.Decision, e.DecidedBy = "denied", "hook"
		}
		if e.DecidedBy == "policy" && e.Decision == "approved" && s.Mode() != ModeDefault {
			e.DecidedBy = "mode"
		}
		if p.res != nil {
			e.OutputBytes = len(p.res.Text)
		}
		if e.Decision != "" {
			s.tel.t.Record(ctx, TelPermissionAnswer, map[string]string{"tool": p.fc.Name, "decision": e.Decision, "by": e.DecidedBy})
		}
		finish(e)
	}
}
