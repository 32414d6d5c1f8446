package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"companion/agent/hooks"
	"companion/agent/model"
	"companion/tools"
)

// prepared is a call ready to run: its id, tool and invocation, or the
// result it already has (an early failure).
type prepared struct {
	fc *model.FunctionCall
	id string
	// args is the call's input as the tool reads it; shown, when set, is
	// the same with its long texts left out (see shownInput), for the
	// front end, telemetry and the journal.
	args  json.RawMessage
	shown json.RawMessage
	tool  tools.Tool
	inv   tools.Invocation
	res   *tools.Result
	// terminal is the editor terminal that showed the call's output, if any.
	terminal string

	// What the steps of the chain learn on the way (see toolchain.go):
	// refusal is a BeforeTool hook's refusal, sent once the call is
	// announced; hookDecision is what that hook said about asking;
	// started is the call as announced; conf is what the call will
	// change, nil when it changes nothing.
	refusal      string
	outcome      string // OutcomeRejected / OutcomeCancelled when the user ended the call
	hookDecision hooks.Decision
	started      ToolCallStarted
	conf         *tools.Confirmation
}

// readOnly reports whether a call may run beside others: it reads or
// searches and never needs approval.
func (p *prepared) readOnly() bool {
	if p.inv == nil {
		return true
	}
	k := p.tool.Kind()
	return k == tools.KindRead || k == tools.KindSearch
}

// runTools runs the model's calls and returns the function responses (and
// any media they produced) for the next request. Runs of consecutive
// read-only calls go concurrently; the others one at a time, in the
// model's order. Calls left when the turn is cancelled are answered as
// cancelled without running.
func (s *engine) runTools(ctx context.Context, calls []model.FunctionCall) []model.Part {
	ps := make([]*prepared, len(calls))
	for i := range calls {
		ps[i] = s.prepare(&calls[i])
	}
	for i := 0; i < len(ps); {
		j := i + 1
		if ps[i].readOnly() {
			for j < len(ps) && ps[j].readOnly() {
				j++
			}
		}
		s.runBatch(ctx, ps[i:j])
		i = j
	}
	var parts, media []model.Part
	for _, p := range ps {
		parts = append(parts, functionResponse(p.fc, p.res, "The user cancelled the turn before this tool ran."))
		if p.res == nil {
			continue
		}
		if p.inv == nil {
			continue
		}
		if text := s.touchMemory(p.inv.Locations()); text != "" {
			media = append(media, model.Part{Text: text})
		}
		for _, img := range p.res.Images {
			media = append(media, model.Part{InlineData: &model.Blob{MIMEType: img.MIMEType, Data: img.Data}})
		}
	}
	return append(parts, media...)
}

// runBatch runs calls concurrently (a batch of one runs inline).
func (s *engine) runBatch(ctx context.Context, batch []*prepared) {
	if len(batch) == 1 {
		s.runOne(ctx, batch[0])
		return
	}
	var wg sync.WaitGroup
	for _, p := range batch {
		wg.Go(func() { s.runOne(ctx, p) })
	}
	wg.Wait()
}

// valuePreparer is a tool that binds arguments already decoded
// (tools.Define's tools): it is handed the provider's values, so a long
// string is bound as it is rather than encoded to JSON for the tool to
// decode again (four times the text of a large write_file allocated).
type valuePreparer interface {
	PrepareValues(env *tools.Env, args map[string]any) (tools.Invocation, error)
}

// prepare looks the tool up and validates the arguments.
func (s *engine) prepare(fc *model.FunctionCall) *prepared {
	p := &prepared{fc: fc, id: s.nextCallID()}
	p.shown = shownInput(fc.Args)
	tool, ok := s.findTool(fc.Name)
	byValue, isValue := tool.(valuePreparer)
	switch {
	case fc.Args == nil:
		p.args = []byte("{}")
	case p.shown != nil && isValue && !s.hooksReadInput():
		// Nothing reads the long texts as JSON: the front end, telemetry
		// and the journal see the input without them.
		p.args = p.shown
	default:
		p.args, _ = marshalArgs(fc.Args)
	}
	if !ok {
		p.res = tools.ErrorResult(fmt.Sprintf("There is no tool named %q.", fc.Name))
		return p
	}
	p.tool = tool
	var inv tools.Invocation
	var err error
	if isValue {
		inv, err = byValue.PrepareValues(s.env, fc.Args)
	} else {
		inv, err = tool.Prepare(s.env, p.args)
	}
	if p.shown != nil {
		// The invocation holds the long texts it needs; history and the
		// loop check keep a note of them.
		fc.Args, _ = compactArgs(fc.Args, maxResentArg)
	}
	if err != nil {
		p.res = tools.ErrorResult(fmt.Sprintf("Invalid call of %s: %v", fc.Name, err))
		return p
	}
	p.inv = inv
	if p.shown != nil && !s.hooksReadInput() {
		// The invocation holds the long texts now.
		p.args = p.shown
	}
	return p
}

// hooksReadInput reports whether tool hooks read a call's whole input,
// which then keeps its long texts as JSON.
func (s *engine) hooksReadInput() bool {
	r := s.opts.Hooks
	return r != nil && (r.Has(hooks.BeforeTool) || r.Has(hooks.AfterTool))
}

// input is the call's input for the front end, telemetry and the journal.
func (p *prepared) input() json.RawMessage {
	if p.shown != nil {
		return p.shown
	}
	return p.args
}

// nextCallID numbers a tool call.
func (s *engine) nextCallID() string {
	return fmt.Sprintf("call_%d", s.callSeq.Add(1))
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
