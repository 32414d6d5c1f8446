package mcpclient

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strings"
)

// event is one server-sent event.
type event struct {
	id, name string
	data     []byte
}

// readEvents reads server-sent events from r and hands each to f until the
// stream ends (nil at a clean end) or f returns false.
func readEvents(r io.Reader, f func(event) bool) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	var ev event
	var data bytes.Buffer
	hasData := false
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			if hasData || ev.name != "" {
				ev.data = bytes.Clone(bytes.TrimSuffix(data.Bytes(), []byte("\n")))
				if ev.name == "" {
					ev.name = "message"
				}
				if !f(ev) {
					return nil
				}
			}
			ev, hasData = event{id: ev.id}, false
			data.Reset()
			continue
		}
		if strings.HasPrefix(line, ":") {
			continue // a comment (keep-alive)
		}
		field, value, _ := strings.Cut(line, ":")
		value = strings.TrimPrefix(value, " ")
		switch field {
		case "event":
			ev.name = value
		case "data":
			data.WriteString(value)
			data.WriteByte('\n')
			hasData = true
		case "id":
			ev.id = value
		}
	}
	if err := sc.Err(); err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	return nil
}
