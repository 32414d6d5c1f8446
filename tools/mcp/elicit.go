package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// Elicitation is a question an MCP server puts to the user while it works
// (MCP's elicitation/create, form mode): a message and, in Schema, the
// JSON Schema of the form to fill in.
type Elicitation struct {
	Server  string
	Message string
	Schema  json.RawMessage
	// URL, when set, makes it a URL-mode question (no Schema): the user is
	// sent to URL, such as a server's OAuth authorization page. An
	// Elicitor that cannot ask in URL mode answers ErrNoURLElicitation.
	URL string
}

// ErrNoURLElicitation is an Elicitor's answer to a URL-mode question the
// client cannot show.
var ErrNoURLElicitation = errors.New("the client cannot send the user to a URL")

// Elicitation answers, as MCP names them.
const (
	ElicitAccept  = "accept"
	ElicitDecline = "decline"
	ElicitCancel  = "cancel"
)

// ElicitAnswer is the user's reply: ElicitAccept with the form's Content,
// ElicitDecline or ElicitCancel.
type ElicitAnswer struct {
	Action  string
	Content map[string]any
}

// Elicitor puts a server's question to the user and waits for the answer.
// An error tells the server the question could not be asked.
type Elicitor func(ctx context.Context, q Elicitation) (ElicitAnswer, error)

// elicitHandler adapts an Elicitor to one server's client.
type elicitHandler struct {
	server string
	ask    Elicitor
}

// Elicit puts a server's question to the user: a form (the schema to
// fill in) or, in URL mode, a page to open.
func (h elicitHandler) Elicit(ctx context.Context, req mcpgo.ElicitationRequest) (*mcpgo.ElicitationResult, error) {
	q := Elicitation{Server: h.server, Message: req.Params.Message}
	switch req.Params.Mode {
	case "", mcpgo.ElicitationModeForm:
		schema, err := json.Marshal(req.Params.RequestedSchema)
		if err != nil {
			return nil, fmt.Errorf("elicitation schema: %w", err)
		}
		q.Schema = schema
	case mcpgo.ElicitationModeURL:
		q.URL = req.Params.URL
	default:
		return nil, fmt.Errorf("elicitation mode %q is not supported", req.Params.Mode)
	}
	a, err := h.ask(ctx, q)
	if err != nil {
		return nil, err
	}
	res := &mcpgo.ElicitationResult{}
	res.Action = mcpgo.ElicitationResponseAction(a.Action)
	if a.Action == ElicitAccept && q.URL == "" {
		res.Content = a.Content
	}
	return res, nil
}
