package acp

import (
	"context"
	"encoding/json"
	"errors"

	"companion/host"
	"companion/rpc"
)

// companion's session extension methods (see the package doc, "Extensions").
const (
	MethodRewind = "_companion/session/rewind"
	MethodFork   = "_companion/session/fork"
)

// RewindRequest asks for a fork of a session from before one of its
// prompts, with the files put back when RestoreFiles is set.
type RewindRequest struct {
	SessionID SessionID `json:"sessionId"`
	// Prompt is the 0-based index of the prompt among the session's
	// session/prompt calls, those replayed by session/load included.
	Prompt       *int `json:"prompt"`
	RestoreFiles bool `json:"restoreFiles"`
}

// RewindResponse names the new session, gives prompt N back for the input
// box and lists the paths put back on disk.
type RewindResponse struct {
	SessionID SessionID      `json:"sessionId"`
	Prompt    []ContentBlock `json:"prompt"`
	Restored  []string       `json:"restored"`
}

// ForkRequest asks for a copy of a whole session.
type ForkRequest struct {
	SessionID SessionID `json:"sessionId"`
}

// ForkResponse names the copy.
type ForkResponse struct {
	SessionID SessionID `json:"sessionId"`
}

// registerExtensions routes companion's extension methods.
func (c *connState) registerExtensions(m *rpc.Mux) {
	rpc.Handle(m, MethodRewind, c.rewind)
	rpc.Handle(m, MethodFork, c.fork)
}

// rewind is _companion/session/rewind.
func (c *connState) rewind(ctx context.Context, _ *rpc.Conn, p *RewindRequest) (*RewindResponse, error) {
	if err := c.ready(false); err != nil {
		return nil, err
	}
	if p.Prompt == nil {
		return nil, rpc.Errorf(rpc.CodeInvalidParams, "prompt is required: the 0-based index of the prompt to rewind to")
	}
	r, err := c.host.Rewind(ctx, string(p.SessionID), *p.Prompt, p.RestoreFiles)
	if err != nil {
		return nil, extError(err)
	}
	return &RewindResponse{SessionID: SessionID(r.ID), Prompt: promptBlocks(r.Prompt.Echo, r.Prompt.Text),
		Restored: append([]string{}, r.Restored...)}, nil
}

// fork is _companion/session/fork.
func (c *connState) fork(_ context.Context, _ *rpc.Conn, p *ForkRequest) (*ForkResponse, error) {
	if err := c.ready(false); err != nil {
		return nil, err
	}
	id, err := c.host.Fork(string(p.SessionID))
	if err != nil {
		return nil, extError(err)
	}
	return &ForkResponse{SessionID: SessionID(id)}, nil
}

// extError maps the host's refusals to invalid params, the rest to an
// internal error.
func extError(err error) error {
	if errors.Is(err, host.ErrInvalid) || errors.Is(err, host.ErrBusy) {
		return rpc.Errorf(rpc.CodeInvalidParams, "%v", err)
	}
	return rpc.Errorf(rpc.CodeInternalError, "%v", err)
}

// promptBlocks is a prompt as the editor sent it (echo, its content
// blocks), or else its text as text blocks.
func promptBlocks(echo json.RawMessage, text []string) []ContentBlock {
	var blocks []ContentBlock
	if len(echo) > 0 && json.Unmarshal(echo, &blocks) == nil && len(blocks) > 0 {
		return blocks
	}
	blocks = make([]ContentBlock, 0, len(text))
	for _, t := range text {
		blocks = append(blocks, ContentBlock{Text: &TextContent{Text: t}})
	}
	return blocks
}

// promptEcho is what the journal keeps of a prompt for a rewind to give
// back: its content blocks, nil when they do not encode.
func promptEcho(blocks []ContentBlock) json.RawMessage {
	b, err := json.Marshal(blocks)
	if err != nil {
		return nil
	}
	return b
}
