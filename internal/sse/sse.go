package sse

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// DefaultLimit is the line and event size a Reader made with a limit of 0
// accepts: 1 MiB, far above any streamed delta yet small enough that a
// server that never ends a line cannot exhaust memory.
const DefaultLimit = 1 << 20

// keepCap is the largest buffer a Reader keeps for the next event; a
// bigger one (a huge event) is left to the caller and the garbage
// collector.
const keepCap = 1 << 20

// ErrTooLong is wrapped by Next when a line, or the data of one event, is
// longer than the Reader's limit.
var ErrTooLong = errors.New("sse: line or event longer than the limit")

// Event is one dispatched event.
type Event struct {
	// Type is the "event:" field; "" when the event named none (the
	// standard's default type, "message").
	Type string
	// Data is the "data:" lines joined by "\n". It is only valid until the
	// next call to Next.
	Data []byte
	// ID is the last "id:" field seen in the stream so far.
	ID string
}

// Done reports whether the event is the "[DONE]" sentinel OpenAI-style
// streams end with.
func (e Event) Done() bool { return string(e.Data) == "[DONE]" }

// Reader reads events from a stream. It is not safe for concurrent use.
type Reader struct {
	br    *bufio.Reader
	limit int
	// line holds the line being read, after the blocks of a long line
	// (blocksLen bytes in all); data and typ the event being built.
	line      []byte
	blocks    [][]byte
	blocksLen int
	data      []byte
	hasData   bool
	typ       string
	id        string
	// skipLF is set after a line that ended in CR, whose LF may follow.
	skipLF bool
	// started is set once the first line (and any BOM) has been read.
	started bool
	err     error
}

// NewReader reads events from r. limit bounds each line and each event's
// data in bytes; 0 or less means DefaultLimit.
func NewReader(r io.Reader, limit int) *Reader {
	if limit <= 0 {
		limit = DefaultLimit
	}
	return &Reader{br: bufio.NewReaderSize(r, min(limit, 64<<10)), limit: limit}
}

// Next returns the next event. At the end of the stream it returns io.EOF
// (after any last event that lacked its closing blank line); a read error
// or ErrTooLong is returned as it happens, and again on every later call.
func (r *Reader) Next() (Event, error) {
	for r.err == nil {
		line, err := r.readLine()
		if err != nil {
			r.err = err
			break
		}
		if len(line) == 0 {
			if ev, ok := r.dispatch(); ok {
				return ev, nil
			}
			continue
		}
		if err := r.field(line); err != nil {
			r.err = err
		}
	}
	if errors.Is(r.err, io.EOF) {
		if ev, ok := r.dispatch(); ok {
			return ev, nil
		}
	}
	return Event{}, r.err
}

// dispatch ends the event being built: it is returned when it had data,
// and dropped (with its type) when it had none, as the standard says.
func (r *Reader) dispatch() (Event, bool) {
	ev := Event{Type: r.typ, Data: r.data, ID: r.id}
	ok := r.hasData
	r.typ, r.hasData = "", false
	r.data = r.data[:0]
	if cap(r.data) > keepCap {
		// The caller holds the only reference now, so a huge event's
		// buffer is freed as soon as the caller is done with it.
		r.data = nil
	}
	return ev, ok
}

// field applies one non-empty line to the event being built.
func (r *Reader) field(line []byte) error {
	if line[0] == ':' {
		return nil // a comment
	}
	name, value, found := bytes.Cut(line, []byte{':'})
	if found && len(value) > 0 && value[0] == ' ' {
		value = value[1:]
	}
	switch string(name) {
	case "data":
		if !r.hasData && len(r.data) == 0 {
			// The first data line becomes the event's data in place: the
			// line buffer is handed over, not copied, so one huge event
			// is held once.
			r.data, r.line = r.line[:copy(r.line, value)], r.data[:0]
			r.hasData = true
			return nil
		}
		if r.hasData {
			r.data = append(r.data, '\n')
		}
		if len(r.data)+len(value) > r.limit {
			return fmt.Errorf("%w: an event's data passed %d bytes", ErrTooLong, r.limit)
		}
		r.data = append(r.data, value...)
		r.hasData = true
	case "event":
		r.typ = string(value)
	case "id":
		if bytes.IndexByte(value, 0) < 0 {
			r.id = string(value)
		}
	}
	return nil
}
