package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"companion/agent/hooks"
	"companion/agent/model"
	"companion/tools"
)

// StopReason says why a prompt ended. The values match ACP's StopReason.
type StopReason string

// Stop reasons.
const (
	EndTurn         StopReason = "end_turn"
	MaxTokens       StopReason = "max_tokens"
	MaxTurnRequests StopReason = "max_turn_requests"
	Refusal         StopReason = "refusal"
	Cancelled       StopReason = "cancelled"
)

// engine is the session's turn engine: it runs a prompt to its end
// (turn.go), keeps the history and builds each request from it
// (history.go, request.go, system.go), compresses it (compress.go),
// detects loops (loopdetect.go) and takes every tool call through the
// chain of toolchain.go (permission, hooks, checkpoints, diagnostics).
// It works on the session it embeds: its options, policy, journal,
// counts and events. Session's exported methods (Prompt) are the way in.
type engine struct {
	*Session

	// runChain takes a tool call through the steps of toolchain.go.
	runChain toolNext
	// hist is the conversation and the context use.
	hist *history
	// reported are the problems last reported after each file's edit.
	reported reportedDiagnostics
	// system is the system prompt once built ("" to build it again);
	// systemMode is the approval mode it was built for.
	system, systemMode locked[string]
	// callSeq numbers tool calls.
	callSeq atomic.Int64
}

// Prompt runs one user turn to its end: it sends the user's parts to the
// model, streams the answer as events, runs the tools the model calls and
// feeds their results back until the model stops. A model or tool
// infrastructure failure ends the turn with an error whose text is one
// sentence for the user; cancellation is a stop reason, not an error.
func (s *Session) Prompt(ctx context.Context, parts []model.Part) (StopReason, error) {
	return s.PromptEcho(ctx, parts, nil)
}

// PromptEcho is Prompt keeping echo with the prompt in the journal: what
// the front end sent, given back by PlanRewind (ACP: the content blocks).
func (s *Session) PromptEcho(ctx context.Context, parts []model.Part, echo json.RawMessage) (StopReason, error) {
	if s.tel == nil {
		return s.eng.promptEcho(ctx, parts, echo)
	}
	ctx, end := s.tel.t.StartTurn(ctx, TurnStart{SessionID: s.opts.ID, Depth: s.opts.Depth, Prompt: promptText(parts)})
	reason, err := s.eng.promptEcho(ctx, parts, echo)
	end(TurnEnd{Stop: reason, Err: err})
	return reason, err
}

// promptEcho is PromptEcho without telemetry.
func (s *engine) promptEcho(ctx context.Context, parts []model.Part, echo json.RawMessage) (StopReason, error) {
	ctx, err := s.turn.begin(ctx)
	if err != nil {
		return "", err
	}
	defer s.turn.end()
	defer s.syncJournal()
	reason, err := s.runPrompt(ctx, parts, echo)
	if reason != EndTurn || err != nil {
		end := TurnEnded{Stop: reason}
		if err != nil {
			end.Error = err.Error()
		}
		s.journalEvent(end)
	}
	return reason, err
}

// runPrompt is one turn, begun by promptEcho.
func (s *engine) runPrompt(ctx context.Context, parts []model.Part, echo json.RawMessage) (StopReason, error) {
	s.prepareState()
	s.tellNotices(ctx)
	s.journalPrompt(parts, echo)
	s.journalUser(parts)
	if text, ok := slashCommand(parts); ok && text == "/init" {
		var refusal string
		if parts, refusal = s.cmds.initCommand(); refusal != "" {
			s.emit(ctx, MessageChunk{Text: refusal})
			return EndTurn, nil
		}
	} else if ok {
		prompt, isFile, err := s.cmds.fileCommand(ctx, text)
		switch {
		case !isFile:
			return s.cmds.runCommand(ctx, text)
		case err != nil:
			s.emit(ctx, MessageChunk{Text: fmt.Sprintf("Cannot run %s: %v", text, err)})
			return EndTurn, nil
		}
		parts = []model.Part{{Text: prompt}}
	}
	parts, refused := s.beforeAgent(ctx, parts)
	if refused {
		return EndTurn, nil
	}
	s.maybeTitle(ctx, parts)
	mark := s.appendHistory(model.Content{Role: model.RoleUser, Parts: s.withIDEContext(ctx, parts)})
	reason, err := s.loop(ctx)
	s.hook(context.WithoutCancel(ctx), hooks.AfterAgent, "", map[string]any{"stop_reason": string(reason), "cancelled": ctx.Err() != nil})
	if ctx.Err() != nil {
		return Cancelled, nil
	}
	if reason == Refusal {
		// The refused prompt and everything after it leave the context.
		s.hist.truncate(mark)
	}
	return reason, err
}

// loop alternates model requests and tool runs until the model stops.
func (s *engine) loop(ctx context.Context) (StopReason, error) {
	var loops loopDetector
	for n := 0; ; n++ {
		if n >= s.opts.MaxRequests {
			s.emit(ctx, MessageChunk{Text: fmt.Sprintf(
				"\n\nStopped after %d model requests in one prompt; send another prompt to continue.", n)})
			return MaxTurnRequests, nil
		}
		if out := s.hook(ctx, hooks.BeforeModel, "", map[string]any{"model": s.ModelName(), "request": n + 1}); blocked(out) {
			s.emit(ctx, MessageChunk{Text: "\n\nStopped by a hook: " + hookReason(out, "the model request")})
			return EndTurn, nil
		}
		resp, err := s.request(ctx, &loops)
		if err != nil {
			if ctx.Err() == nil && (s.rollbackModel(ctx, err) || s.fallback(ctx, err)) {
				continue
			}
			return "", err
		}
		s.confirmModel()
		s.hook(ctx, hooks.AfterModel, "", map[string]any{"model": s.ModelName(), "finish_reason": string(resp.finish), "tool_calls": len(resp.calls)})
		if what := resp.loop; what != "" || loops.calls(resp.calls) {
			if what == "" {
				what = "the same tool call with the same arguments, again and again"
			}
			s.tel.record(ctx, TelLoopDetected, map[string]string{"what": what})
			if stop, ok := s.onLoop(ctx, &loops, resp, what); ok {
				return stop, nil
			}
			continue
		}
		switch resp.finish {
		case model.FinishSafety:
			return Refusal, nil
		case model.FinishMaxTokens:
			if len(resp.calls) == 0 {
				return MaxTokens, nil
			}
		}
		if len(resp.calls) == 0 {
			return EndTurn, nil
		}
		results := s.runTools(ctx, resp.calls)
		s.appendHistory(model.Content{Role: model.RoleUser, Parts: results})
		if ctx.Err() != nil {
			return Cancelled, nil
		}
	}
}

// onLoop handles a detected loop: the first time the model gets a nudge
// (its pending calls answered as skipped) and the prompt goes on; the
// second time the prompt ends.
func (s *engine) onLoop(ctx context.Context, loops *loopDetector, resp response, what string) (StopReason, bool) {
	why := "Blocked as a repeat: the model made this same call again and again, so it was not run."
	if resp.loop != "" {
		why = "Blocked: the model was repeating itself, so this call was not run."
	}
	s.blockCalls(ctx, resp.calls, why)
	if loops.nudged {
		s.emit(ctx, MessageChunk{Text: "\n\nStopped: the model kept repeating itself (" + what + "). Rephrase the request or break it into smaller steps."})
		return MaxTurnRequests, true
	}
	loops.nudged = true
	var parts []model.Part
	for i := range resp.calls {
		parts = append(parts, functionResponse(&resp.calls[i], nil, "Not run: you are repeating the same call."))
	}
	parts = append(parts, model.Part{Text: loopNudge(what)})
	s.appendHistory(model.Content{Role: model.RoleUser, Parts: parts})
	return "", false
}

// blockCalls shows each call of a looping response as a card that ends
// failed with OutcomeBlocked, so the user sees what was not run and the
// answers before and after it stay apart. why is the card's text.
func (s *engine) blockCalls(ctx context.Context, calls []model.FunctionCall, why string) {
	for i := range calls {
		p := s.prepare(&calls[i])
		started := ToolCallStarted{ID: p.id, Name: p.fc.Name, Title: p.fc.Name, Kind: tools.KindOther, Input: p.input()}
		if p.inv != nil {
			started.Title, started.Kind, started.Locations = p.inv.Title(), p.tool.Kind(), p.inv.Locations()
		}
		s.emit(ctx, started)
		s.emit(ctx, ToolCallUpdated{ID: p.id, Status: ToolFailed, Text: why, Refused: true, Outcome: OutcomeBlocked})
	}
}

// response is what one model request produced.
type response struct {
	calls  []model.FunctionCall
	finish model.FinishReason
	// loop names a repetition found in the streamed text, if any.
	loop string
}

// request sends the history to the model, streams the answer out as events
// and records the model's turn in the history.
func (s *engine) request(ctx context.Context, loops *loopDetector) (response, error) {
	req, err := s.buildRequest(ctx)
	if err != nil {
		return response{}, err
	}
	loops.startResponse()
	ctx, ms := s.startModelSpan(ctx, req.Model)
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	var (
		resp  response
		parts []model.Part
		usage *model.Usage
		start = time.Now()
	)
	for chunk, err := range s.opts.Model.Stream(ctx, req) {
		if err != nil {
			s.appendModelTurn(parts)
			if ctx.Err() != nil {
				ms.end(ModelEnd{Err: ctx.Err()})
				return response{}, ctx.Err()
			}
			s.addModelError(req.Model, time.Since(start))
			ms.end(ModelEnd{Err: err})
			return response{}, err
		}
		for _, p := range chunk.Parts {
			s.emitPart(ctx, p)
			if p.FunctionCall != nil {
				resp.calls = append(resp.calls, *p.FunctionCall)
			}
			if !p.Thought && p.Text != "" && loops.text(p.Text) {
				resp.loop = "the same line of text, over and over"
			}
		}
		parts = appendParts(parts, chunk.Parts)
		if resp.loop != "" {
			break // stop streaming a model that repeats itself
		}
		if chunk.FinishReason != model.FinishNone {
			resp.finish = chunk.FinishReason
		}
		if chunk.Usage != nil {
			usage = chunk.Usage
		}
	}
	s.appendModelTurn(parts)
	if usage == nil {
		usage = s.countTokens(ctx, req)
	}
	s.addUsage(req.Model, usage, time.Since(start))
	ms.end(ModelEnd{Usage: usage, Finish: resp.finish})
	if usage != nil {
		used, window := usage.PromptTokens+usage.OutputTokens+usage.ThoughtTokens, s.opts.Model.ContextWindow(req.Model)
		s.hist.setUse(used, window)
		s.emit(ctx, UsageUpdated{Used: used, Size: window})
	}
	return resp, nil
}

// emitPart reports one streamed part; function calls are reported when they
// run, with their titles.
func (s *engine) emitPart(ctx context.Context, p model.Part) {
	switch {
	case p.FunctionCall != nil, p.Text == "":
	case p.Thought:
		s.emit(ctx, ThoughtChunk{Text: p.Text})
	default:
		s.emit(ctx, MessageChunk{Text: p.Text})
	}
}

// appendParts merges streamed parts, joining consecutive text deltas of the
// same kind so history holds whole paragraphs rather than thousands of
// fragments.
func appendParts(dst, src []model.Part) []model.Part {
	for _, p := range src {
		if n := len(dst); n > 0 && mergeable(dst[n-1], p) {
			dst[n-1].Text += p.Text
			if len(p.ThoughtSignature) > 0 {
				dst[n-1].ThoughtSignature = p.ThoughtSignature
			}
			continue
		}
		dst = append(dst, p)
	}
	return dst
}

func mergeable(a, b model.Part) bool {
	plain := func(p model.Part) bool {
		return p.FunctionCall == nil && p.FunctionResponse == nil && p.InlineData == nil
	}
	return plain(a) && plain(b) && a.Thought == b.Thought && len(a.ThoughtSignature) == 0
}

// slashCommand reports whether the prompt is a single text that starts with
// a slash, and returns it.
func slashCommand(parts []model.Part) (string, bool) {
	if len(parts) != 1 || parts[0].Text == "" {
		return "", false
	}
	text := strings.TrimSpace(parts[0].Text)
	return text, strings.HasPrefix(text, "/") && len(text) > 1
}

// beforeAgent runs SessionStart (on the first prompt) and BeforeAgent
// hooks. A blocking hook refuses the prompt; extra context is added to it.
func (s *engine) beforeAgent(ctx context.Context, parts []model.Part) ([]model.Part, bool) {
	if first := !s.started.Swap(true); first {
		s.hook(ctx, hooks.SessionStart, "startup", map[string]any{"source": "startup"})
	}
	var text strings.Builder
	for _, p := range parts {
		text.WriteString(p.Text)
	}
	out := s.hook(ctx, hooks.BeforeAgent, "", map[string]any{"prompt": text.String()})
	if blocked(out) {
		s.emit(ctx, MessageChunk{Text: "The prompt was blocked by a hook: " + hookReason(out, "the prompt")})
		return parts, true
	}
	if out.AdditionalContext != "" {
		parts = append(parts, model.Part{Text: out.AdditionalContext})
	}
	return parts, false
}

// countTokens asks the provider for the request's size when the response
// carried no usage, so compression still knows when to start; nil when
// the provider cannot count.
func (s *engine) countTokens(ctx context.Context, req *model.Request) *model.Usage {
	tc, ok := s.opts.Model.(model.TokenCounter)
	if !ok {
		return nil
	}
	n, err := tc.CountTokens(ctx, req)
	if err != nil {
		s.opts.Log.Debug("countTokens failed", "err", err)
		return nil
	}
	return &model.Usage{PromptTokens: n, TotalTokens: n}
}
