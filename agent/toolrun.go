package agent

import (
	"context"
	"encoding/json"
	"fmt"

	"companion/agent/model"
	"companion/tools"
)

// runTools runs the model's calls in order and returns the function
// responses (and any media they produced) for the next request. Calls left
// when the turn is cancelled are answered as cancelled without running.
func (s *Session) runTools(ctx context.Context, calls []model.FunctionCall) []model.Part {
	var parts, media []model.Part
	for i := range calls {
		fc := &calls[i]
		if ctx.Err() != nil {
			parts = append(parts, functionResponse(fc, nil, "The user cancelled the turn before this tool ran."))
			continue
		}
		res := s.runTool(ctx, fc)
		parts = append(parts, functionResponse(fc, res, ""))
		for _, img := range res.Images {
			media = append(media, model.Part{InlineData: &model.Blob{MIMEType: img.MIMEType, Data: img.Data}})
		}
	}
	return append(parts, media...)
}

// runTool takes one call through its lifecycle, reporting each state.
func (s *Session) runTool(ctx context.Context, fc *model.FunctionCall) *tools.Result {
	id := s.nextCallID()
	args, _ := json.Marshal(fc.Args)
	if fc.Args == nil {
		args = []byte("{}")
	}
	tool, ok := s.opts.Tools.Get(fc.Name)
	if !ok {
		return s.failEarly(ctx, id, fc, args, fmt.Sprintf("There is no tool named %q.", fc.Name))
	}
	inv, err := tool.Prepare(s.env, args)
	if err != nil {
		return s.failEarly(ctx, id, fc, args, fmt.Sprintf("Invalid call of %s: %v", fc.Name, err))
	}
	s.emit(ctx, ToolCallStarted{ID: id, Name: fc.Name, Title: inv.Title(), Kind: tool.Kind(),
		Locations: inv.Locations(), Input: args})
	if c, _ := inv.Confirmation(ctx); c != nil {
		res := tools.ErrorResult(fmt.Sprintf("%s needs the user's approval, and this session has no way to ask for it.", fc.Name))
		s.finishTool(ctx, id, res)
		return res
	}
	s.emit(ctx, ToolCallUpdated{ID: id, Status: ToolInProgress})
	res, err := inv.Execute(ctx, &toolOutput{s: s, ctx: ctx, id: id})
	switch {
	case ctx.Err() != nil:
		res = tools.ErrorResult("The user cancelled this tool call.")
	case err != nil:
		s.opts.Log.Error("tool failed", "tool", fc.Name, "err", err)
		res = tools.ErrorResult(fmt.Sprintf("%s failed: %v", fc.Name, err))
	case res == nil:
		res = &tools.Result{}
	}
	s.finishTool(ctx, id, res)
	return res
}

// failEarly reports a call that could not even start.
func (s *Session) failEarly(ctx context.Context, id string, fc *model.FunctionCall, args []byte, msg string) *tools.Result {
	s.emit(ctx, ToolCallStarted{ID: id, Name: fc.Name, Title: fc.Name, Kind: tools.KindOther, Input: args})
	res := tools.ErrorResult(msg)
	s.finishTool(ctx, id, res)
	return res
}

// finishTool reports a call's end state and output.
func (s *Session) finishTool(ctx context.Context, id string, res *tools.Result) {
	status := ToolCompleted
	if res.IsError {
		status = ToolFailed
	}
	text := res.Display
	if text == "" {
		text = res.Text
	}
	s.emit(ctx, ToolCallUpdated{ID: id, Status: status, Text: text, Images: res.Images, Raw: res.Raw})
}

func (s *Session) nextCallID() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.callSeq++
	return fmt.Sprintf("call_%d", s.callSeq)
}

// functionResponse answers fc with res, or with failure text when res is nil.
func functionResponse(fc *model.FunctionCall, res *tools.Result, failure string) model.Part {
	resp := map[string]any{}
	switch {
	case res == nil:
		resp["error"] = failure
	case res.IsError:
		resp["error"] = res.Text
	default:
		resp["output"] = res.Text
	}
	return model.Part{FunctionResponse: &model.FunctionResponse{ID: fc.ID, Name: fc.Name, Response: resp}}
}

// toolOutput streams a running call's output to the session's sink.
type toolOutput struct {
	s   *Session
	ctx context.Context
	id  string
	buf []byte
}

// Write appends text to the call's visible output.
func (o *toolOutput) Write(text string) {
	o.buf = append(o.buf, text...)
	o.s.emit(o.ctx, ToolCallUpdated{ID: o.id, Status: ToolInProgress, Text: string(o.buf)})
}
