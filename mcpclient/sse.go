package mcpclient

import (
	"bytes"
	"errors"
	"io"

	"companion/internal/sse"
)

// event is one server-sent event.
type event struct {
	id, name string
	data     []byte
}

// readEvents reads server-sent events from r (internal/sse, each line
// bounded by maxLine, an event cut off by the stream's end dropped) and
// hands each to f until the stream ends (nil at a clean end) or f returns
// false. An event without a type is a "message", as the standard names it.
func readEvents(r io.Reader, f func(event) bool) error {
	rd := sse.NewReader(r, maxLine)
	rd.DropUnterminated = true
	for {
		ev, err := rd.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		name := ev.Type
		if name == "" {
			name = "message"
		}
		if !f(event{id: ev.ID, name: name, data: bytes.Clone(ev.Data)}) {
			return nil
		}
	}
}
