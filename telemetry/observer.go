package telemetry

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"

	"companion/agent"
	"companion/agent/model"
)

var _ agent.Telemetry = (*Provider)(nil)

// StartTurn starts the turn's span and logs the user's prompt (its text
// only with LogPrompts).
func (p *Provider) StartTurn(ctx context.Context, t agent.TurnStart) (context.Context, func(agent.TurnEnd)) {
	attrs := []attribute.KeyValue{attribute.String("session.id", t.SessionID),
		attribute.Int("subagent.depth", t.Depth), attribute.Int("prompt.length", len(t.Prompt))}
	logAttrs := []attribute.KeyValue{attribute.Int("prompt.length", len(t.Prompt))}
	if p.opts.LogPrompts {
		attrs = append(attrs, attribute.String("prompt", t.Prompt))
		logAttrs = append(logAttrs, attribute.String("prompt", t.Prompt))
	}
	ctx, span := p.tracer.Start(ctx, SpanTurn, trace.WithAttributes(attrs...))
	ctx = context.WithValue(ctx, turnKey{}, &turnSpans{})
	if t.Depth == 0 {
		p.emit(ctx, LogUserPrompt, logAttrs...)
	}
	return ctx, func(e agent.TurnEnd) {
		stop := string(e.Stop)
		if e.Err != nil {
			stop = "error"
		}
		span.SetAttributes(attribute.String("stop_reason", stop))
		fail(span, e.Err)
		span.End()
		p.inst.turns.Add(context.WithoutCancel(ctx), 1, metric.WithAttributes(attribute.String("stop_reason", stop)))
	}
}

// StartModelRequest starts a model request's span.
func (p *Provider) StartModelRequest(ctx context.Context, modelName string) (context.Context, func(agent.ModelEnd)) {
	ctx, span := p.tracer.Start(ctx, SpanModel, trace.WithSpanKind(trace.SpanKindClient),
		trace.WithAttributes(attribute.String("gen_ai.request.model", modelName)))
	if ts, ok := ctx.Value(turnKey{}).(*turnSpans); ok {
		ts.setRequest(span.SpanContext())
	}
	return ctx, func(e agent.ModelEnd) {
		ctx := context.WithoutCancel(ctx)
		ms := float64(e.Took) / float64(time.Millisecond)
		span.SetAttributes(attribute.Float64("latency_ms", ms), attribute.Int("retries", e.Retries),
			attribute.String("finish_reason", string(e.Finish)))
		if u := e.Usage; u != nil {
			span.SetAttributes(attribute.Int("tokens.input", u.PromptTokens), attribute.Int("tokens.output", u.OutputTokens),
				attribute.Int("tokens.cached", u.CachedTokens), attribute.Int("tokens.thought", u.ThoughtTokens))
			p.addTokens(ctx, modelName, u)
		}
		fail(span, e.Err)
		span.End()
		status := statusOf(e.Err)
		by := metric.WithAttributes(attribute.String("model", modelName), attribute.String("status", status))
		p.inst.requests.Add(ctx, 1, by)
		if e.Err != nil {
			p.inst.errors.Add(ctx, 1, by)
		}
		p.inst.modelTime.Record(ctx, ms, metric.WithAttributes(attribute.String("model", modelName)))
	}
}

// addTokens counts a request's tokens by type.
func (p *Provider) addTokens(ctx context.Context, modelName string, u *model.Usage) {
	for _, t := range []struct {
		kind string
		n    int
	}{{"input", u.PromptTokens}, {"output", u.OutputTokens}, {"cached", u.CachedTokens}, {"thought", u.ThoughtTokens}} {
		if t.n > 0 {
			p.inst.tokens.Add(ctx, int64(t.n), metric.WithAttributes(attribute.String("model", modelName), attribute.String("type", t.kind)))
		}
	}
}

// statusOf is a request's status for metrics: "ok", the HTTP status of
// an API error, or "error".
func statusOf(err error) string {
	if err == nil {
		return "ok"
	}
	var api *model.APIError
	if errors.As(err, &api) && api.Status != 0 {
		return strconv.Itoa(api.Status)
	}
	return "error"
}

// StartToolCall starts a tool call's span (its arguments only with
// LogPrompts).
func (p *Provider) StartToolCall(ctx context.Context, c agent.ToolStart) (context.Context, func(agent.ToolEnd)) {
	attrs := []attribute.KeyValue{attribute.String("tool.name", c.Name), attribute.String("tool.kind", string(c.Kind)),
		attribute.String("tool.call_id", c.ID)}
	if p.opts.LogPrompts {
		attrs = append(attrs, attribute.String("tool.args", string(c.Args)))
	}
	if ts, ok := ctx.Value(turnKey{}).(*turnSpans); ok {
		if req := ts.request(); req.IsValid() {
			// Under the model request that asked for the call.
			ctx = trace.ContextWithSpanContext(ctx, req)
		}
	}
	ctx, span := p.tracer.Start(ctx, SpanTool, trace.WithAttributes(attrs...))
	return ctx, func(e agent.ToolEnd) {
		ctx := context.WithoutCancel(ctx)
		ms := float64(e.Took) / float64(time.Millisecond)
		span.SetAttributes(attribute.String("decision", e.Decision), attribute.String("decided_by", e.DecidedBy),
			attribute.Float64("duration_ms", ms), attribute.Bool("success", !e.Failed), attribute.Int("output_bytes", e.OutputBytes))
		if e.Failed {
			span.SetStatus(codes.Error, "the call failed or was refused")
		}
		span.End()
		p.inst.toolCalls.Add(ctx, 1, metric.WithAttributes(attribute.String("tool.name", c.Name),
			attribute.String("decision", e.Decision), attribute.Bool("success", !e.Failed)))
		p.inst.toolTime.Record(ctx, ms, metric.WithAttributes(attribute.String("tool.name", c.Name)))
	}
}

// StartStep starts the span of a hook, a compression or an MCP call.
func (p *Provider) StartStep(ctx context.Context, kind, name string) (context.Context, func(error)) {
	spanName, attrs := SpanHook, []attribute.KeyValue{attribute.String("hook.event", name)}
	switch kind {
	case "compression":
		spanName, attrs = SpanCompression, nil
	case "mcp":
		spanName, attrs = SpanMCP, []attribute.KeyValue{attribute.String("tool.name", name)}
	}
	ctx, span := p.tracer.Start(ctx, spanName, trace.WithAttributes(attrs...))
	return ctx, func(err error) {
		fail(span, err)
		span.End()
		if kind == "compression" {
			status := "completed"
			if err != nil {
				status = "failed"
			}
			p.inst.compressions.Add(context.WithoutCancel(ctx), 1, metric.WithAttributes(attribute.String("status", status)))
		}
	}
}

// Record counts what happened, and logs a model fallback.
func (p *Provider) Record(ctx context.Context, name string, a map[string]string) {
	ctx = context.WithoutCancel(ctx)
	switch name {
	case agent.TelLoopDetected:
		p.inst.loops.Add(ctx, 1, metric.WithAttributes(attribute.String("what", a["what"])))
	case agent.TelPermissionAnswer:
		p.inst.permissions.Add(ctx, 1, metric.WithAttributes(attribute.String("tool.name", a["tool"]),
			attribute.String("decision", a["decision"]), attribute.String("decided_by", a["by"])))
	case agent.TelModelFallback:
		p.inst.fallbacks.Add(ctx, 1, metric.WithAttributes(attribute.String("from", a["from"]), attribute.String("to", a["to"])))
		p.emit(ctx, LogFallback, attribute.String("from", a["from"]), attribute.String("to", a["to"]), attribute.String("reason", a["reason"]))
	}
}

// fail marks span failed with err, when there is one.
func fail(span trace.Span, err error) {
	if err != nil {
		span.SetAttributes(attribute.String("error", err.Error()))
		span.SetStatus(codes.Error, err.Error())
	}
}

// turnKey is the context key of a turn's turnSpans.
type turnKey struct{}

// turnSpans remembers a turn's latest model request, the parent of the
// tool calls its answer asked for.
type turnSpans struct {
	mu  sync.Mutex
	req trace.SpanContext
}

func (t *turnSpans) setRequest(sc trace.SpanContext) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.req = sc
}

func (t *turnSpans) request() trace.SpanContext {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.req
}
