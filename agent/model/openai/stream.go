package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"

	"companion/agent/model"
	"companion/internal/sse"
)

// maxEvent bounds one line and one event of a stream. A tool call's
// arguments may come in one delta (a whole file for write_file), so it is
// generous; the reader fails with sse.ErrTooLong past it rather than grow.
const maxEvent = 16 << 20

// attempt makes one streamed request with body and yields what it maps
// to. delivered reports whether anything reached the caller. The stream
// ends at "data: [DONE]" or at the end of the body; an error event ends
// the attempt with an *eventError.
func (p *Provider) attempt(ctx context.Context, body []byte, yield func(*model.Chunk, error) bool) (delivered bool, err error) {
	res, err := p.client.send(ctx, http.MethodPost, "/chat/completions", body, "text/event-stream")
	if err != nil {
		return false, err
	}
	defer func() { _ = res.Body.Close() }()
	events := sse.NewReader(res.Body, maxEvent)
	st := newStreamState(newCallID, p.log)
	for {
		ev, err := events.Next()
		if errors.Is(err, io.EOF) || (err == nil && ev.Done()) {
			break
		}
		if err != nil {
			return delivered, err
		}
		c, err := decodeEvent(ev)
		if err != nil {
			return delivered, err
		}
		out := st.add(c)
		if out == nil {
			continue
		}
		delivered = true
		if !yield(out, nil) {
			return true, nil
		}
	}
	if st.events == 0 {
		return delivered, errNoEvents
	}
	yield(st.end(), nil)
	return true, nil
}

// decodeEvent decodes one event's chunk, or returns the *eventError of an
// error event: one typed "error", or data that is an object with an
// "error" member (OpenRouter's and vLLM's shape).
func decodeEvent(ev sse.Event) (*chunk, error) {
	var c struct {
		chunk
		Error json.RawMessage `json:"error"`
	}
	err := json.Unmarshal(ev.Data, &c)
	switch {
	case ev.Type == "error" || (err == nil && len(c.Error) > 0 && string(c.Error) != "null"):
		return nil, &eventError{data: bytes.Clone(ev.Data)}
	case err != nil:
		return nil, fmt.Errorf("decoding stream event %q: %w", model.OneLine(string(ev.Data)), err)
	}
	return &c.chunk, nil
}
