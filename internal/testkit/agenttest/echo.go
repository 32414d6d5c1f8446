package agenttest

import (
	"context"
	"encoding/json"
	"errors"

	"companion/tools"
)

// Echo is the tool "echo": it returns its "text" argument; with "block"
// true it writes "waiting" and waits for cancellation.
type Echo struct{}

// Name is "echo".
func (Echo) Name() string { return "echo" }

// Description has two lines, for tests of what shows the first one only.
func (Echo) Description() string { return "Echo text back.\nMore." }

// Kind is other.
func (Echo) Kind() tools.Kind { return tools.KindOther }

// Schema is any object.
func (Echo) Schema() json.RawMessage { return json.RawMessage(`{"type":"object"}`) }

// Prepare refuses a call without text.
func (Echo) Prepare(_ *tools.Env, args json.RawMessage) (tools.Invocation, error) {
	var p struct {
		Text  string `json:"text"`
		Block bool   `json:"block"`
	}
	if err := json.Unmarshal(args, &p); err != nil || p.Text == "" {
		return nil, errors.New(`missing required parameter "text"`)
	}
	return echoCall{p.Text, p.Block}, nil
}

type echoCall struct {
	text  string
	block bool
}

func (c echoCall) Title() string                                           { return "Echo " + c.text }
func (echoCall) Locations() []tools.Location                               { return nil }
func (echoCall) Confirmation(context.Context) (*tools.Confirmation, error) { return nil, nil }
func (c echoCall) Execute(ctx context.Context, out tools.Output) (*tools.Result, error) {
	if c.block {
		out.Write("waiting")
		<-ctx.Done()
		return nil, ctx.Err()
	}
	return &tools.Result{Text: c.text}, nil
}
