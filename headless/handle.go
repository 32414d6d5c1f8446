package headless

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"

	"companion/agent/model"
)

// handle routes one stdin line. Bad lines are answered (an error control
// response when they carry a request_id, else a notice) and the session
// goes on.
func (sr *streamRun) handle(ctx context.Context, line []byte) {
	var in inbound
	if err := json.Unmarshal(line, &in); err != nil {
		sr.badLine(fmt.Sprintf("a line is not a JSON object: %v", err))
		return
	}
	switch in.Type {
	case typeUser:
		parts, err := userParts(in.Message)
		if err != nil {
			sr.badLine("a user message was ignored: " + err.Error())
			return
		}
		sr.enqueue(parts)
	case typeControlReq:
		sr.controlRequest(ctx, in)
	case typeControlResp:
		if err := sr.ctl.answered(in.Response); err != nil {
			sr.badLine(err.Error())
		}
	case typeControlAbort:
		id, ok := in.requestID()
		if !ok {
			sr.badLine("a control_cancel_request needs a request_id")
			return
		}
		sr.ctl.cancelled(id)
	default:
		sr.badLine(fmt.Sprintf("unknown message type %q: want user, control_request, control_response or control_cancel_request", in.Type))
	}
}

// badLine reports a line companion could not use.
func (sr *streamRun) badLine(msg string) {
	sr.o.Log.Warn("stream-json input", "problem", msg)
	sr.rep.system("notice", map[string]any{"level": "error", "message": msg})
}

// controlRequest validates a control request and starts working on it.
func (sr *streamRun) controlRequest(ctx context.Context, in inbound) {
	id, ok := in.requestID()
	if !ok {
		sr.badLine("a control_request needs a request_id")
		return
	}
	var req map[string]json.RawMessage
	if err := json.Unmarshal(in.Request, &req); err != nil || req == nil {
		sr.ctl.reply(id, nil, errors.New("the control_request has no request object"))
		return
	}
	sub := subtypeOf(in.Request)
	work, ok := sr.handlers()[sub]
	if !ok {
		sr.ctl.reply(id, nil, fmt.Errorf("unknown control request subtype %q", sub))
		return
	}
	sr.ctl.serve(ctx, id, func(ctx context.Context) (any, error) { return work(ctx, in.Request) })
}

// userMessage is the message of a user line.
type userMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

// inputBlock is a content block of a user message.
type inputBlock struct {
	Type   string `json:"type"`
	Text   string `json:"text"`
	Source *struct {
		Type      string `json:"type"`
		MediaType string `json:"media_type"`
		Data      string `json:"data"`
	} `json:"source"`
}

// userParts turns a user message into prompt parts: a string, or text and
// base64 image blocks.
func userParts(raw json.RawMessage) ([]model.Part, error) {
	var m userMessage
	if err := json.Unmarshal(raw, &m); err != nil || len(m.Content) == 0 {
		return nil, errors.New(`it needs "message": {"role": "user", "content": ...}`)
	}
	var text string
	if json.Unmarshal(m.Content, &text) == nil {
		if text == "" {
			return nil, errors.New("its content is empty")
		}
		return []model.Part{{Text: text}}, nil
	}
	var blocks []inputBlock
	if err := json.Unmarshal(m.Content, &blocks); err != nil {
		return nil, errors.New("its content is neither a string nor a list of blocks")
	}
	var parts []model.Part
	for i, b := range blocks {
		p, err := blockPart(b)
		if err != nil {
			return nil, fmt.Errorf("block %d: %w", i, err)
		}
		parts = append(parts, p)
	}
	if len(parts) == 0 {
		return nil, errors.New("its content is empty")
	}
	return parts, nil
}

func blockPart(b inputBlock) (model.Part, error) {
	switch b.Type {
	case "text":
		return model.Part{Text: b.Text}, nil
	case "image":
		if b.Source == nil || b.Source.Type != "base64" || b.Source.MediaType == "" {
			return model.Part{}, errors.New(`an image needs "source": {"type": "base64", "media_type", "data"}`)
		}
		data, err := base64.StdEncoding.DecodeString(b.Source.Data)
		if err != nil {
			return model.Part{}, fmt.Errorf("the image data is not base64: %w", err)
		}
		return model.Part{InlineData: &model.Blob{MIMEType: b.Source.MediaType, Data: data}}, nil
	}
	return model.Part{}, fmt.Errorf("unsupported block type %q (want text or image)", b.Type)
}
