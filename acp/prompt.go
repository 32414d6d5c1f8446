package acp

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"companion/agent"
	"companion/agent/model"
	"companion/rpc"
)

// SessionPrompt runs one turn. The request's context is the turn's: a
// $/cancel_request or a closed connection cancels it like session/cancel.
func (c *connState) SessionPrompt(ctx context.Context, _ *rpc.Conn, p *PromptRequest) (*PromptResponse, error) {
	s, err := c.session(p.SessionID)
	if err != nil {
		return nil, err
	}
	select { // the session's command list goes out first
	case <-s.updates.announced:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	parts, err := promptParts(p.Prompt, func(l *ResourceLink) []model.Part {
		return s.agent.ReadMention(ctx, l.URI, l.Name)
	}, s.agent.FrameData)
	if err != nil {
		return nil, rpc.Errorf(rpc.CodeInvalidParams, "%v", err)
	}
	reason, err := s.agent.PromptEcho(ctx, parts, promptEcho(p.Prompt))
	switch {
	case errors.Is(err, agent.ErrBusy), errors.Is(err, agent.ErrClosed):
		return nil, rpc.Errorf(rpc.CodeInvalidRequest, "%v", err)
	case err != nil:
		return nil, promptError(err)
	}
	return &PromptResponse{StopReason: StopReason(reason)}, nil
}

// promptError turns a failed turn into one clear sentence on the wire;
// rejected credentials become "authentication required".
func promptError(err error) *rpc.Error {
	var api *model.APIError
	if errors.As(err, &api) && (api.Status == 401 || api.Status == 403) {
		return &rpc.Error{Code: rpc.CodeAuthRequired, Message: api.Error()}
	}
	return &rpc.Error{Code: rpc.CodeInternalError, Message: err.Error()}
}

// SessionCancel stops the session's running turn; unknown sessions are ignored,
// as notifications get no answer.
func (c *connState) SessionCancel(_ context.Context, _ *rpc.Conn, p *CancelNotification) {
	if s, err := c.session(p.SessionID); err == nil {
		s.agent.Cancel()
	}
}

// promptParts turns the prompt's content blocks into model parts.
// Embedded resources become text the model reads, framed as data by frame;
// links (@-mentions) are read by readLink.
func promptParts(blocks []ContentBlock, readLink func(*ResourceLink) []model.Part, frame func(source, text string) string) ([]model.Part, error) {
	if len(blocks) == 0 {
		return nil, errors.New("the prompt is empty")
	}
	parts := make([]model.Part, 0, len(blocks))
	for i, b := range blocks {
		if b.ResourceLink != nil {
			parts = append(parts, readLink(b.ResourceLink)...)
			continue
		}
		p, err := blockPart(b)
		if err != nil {
			return nil, fmt.Errorf("prompt block %d: %w", i, err)
		}
		if b.Resource != nil && p.Text != "" {
			p.Text = frame("resource", p.Text)
		}
		parts = append(parts, p)
	}
	return parts, nil
}

func blockPart(b ContentBlock) (model.Part, error) {
	switch {
	case b.Text != nil:
		return model.Part{Text: b.Text.Text}, nil
	case b.Image != nil:
		return mediaPart(b.Image.MIMEType, b.Image.Data)
	case b.Audio != nil:
		return mediaPart(b.Audio.MIMEType, b.Audio.Data)
	case b.Resource != nil:
		return resourcePart(b.Resource.Resource)
	}
	return model.Part{}, errors.New("unsupported content block")
}

func mediaPart(mime, data string) (model.Part, error) {
	raw, err := base64.StdEncoding.DecodeString(data)
	if err != nil {
		return model.Part{}, fmt.Errorf("%s data is not valid base64: %w", mime, err)
	}
	return model.Part{InlineData: &model.Blob{MIMEType: mime, Data: raw}}, nil
}

// resourcePart embeds a resource the editor attached (an @-mention).
func resourcePart(r EmbeddedResourceResource) (model.Part, error) {
	switch {
	case r.TextResourceContents != nil:
		t := r.TextResourceContents
		fence := "```"
		for strings.Contains(t.Text, fence) {
			fence += "`"
		}
		return model.Part{Text: fmt.Sprintf("Content of %s:\n%s\n%s\n%s", t.URI, fence, t.Text, fence)}, nil
	case r.BlobResourceContents != nil:
		return mediaPart(r.BlobResourceContents.MIMEType, r.BlobResourceContents.Blob)
	}
	return model.Part{}, errors.New("resource has neither text nor blob")
}
