package headless

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"io"
	"sync"
)

// lineWriter writes whole JSON lines; it is safe for concurrent use, so
// control responses, events and results never interleave.
type lineWriter struct {
	mu  sync.Mutex
	w   io.Writer
	err error
}

// write encodes v as one line. After a failed write (the reader went away)
// it writes nothing more.
func (l *lineWriter) write(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		// Every value written is built here from plain types; a failure
		// is a bug, reported instead of a silent gap in the stream.
		b, _ = json.Marshal(map[string]string{"type": typeSystem, "subtype": "notice", "level": "error",
			"message": "companion could not encode a message: " + err.Error()})
	}
	b = append(b, '\n')
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err == nil {
		_, l.err = l.w.Write(b)
	}
}

// newUUID returns a random version 4 UUID.
func newUUID() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}
