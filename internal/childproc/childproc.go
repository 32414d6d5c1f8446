package childproc

import (
	"sort"
	"strings"
	"sync"
)

// Env returns base with the variables of extra set, replacing any of the
// same name; the added ones come last in name order, so a child's
// environment does not depend on map order.
func Env(base []string, extra map[string]string) []string {
	if len(extra) == 0 {
		return base
	}
	keys := make([]string, 0, len(extra))
	for k := range extra {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]string, 0, len(base)+len(keys))
	for _, kv := range base {
		name, _, _ := strings.Cut(kv, "=")
		if _, ok := extra[name]; !ok {
			out = append(out, kv)
		}
	}
	for _, k := range keys {
		out = append(out, k+"="+extra[k])
	}
	return out
}

// Tail is an io.Writer that keeps only the last Max bytes written to it: a
// child's stderr, bounded however much the child writes. It is safe for
// concurrent use.
type Tail struct {
	// Max is how many bytes are kept.
	Max int

	// mu guards buf.
	mu  sync.Mutex
	buf []byte
}

// Write appends b, dropping the oldest bytes beyond Max.
func (t *Tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if over := len(t.buf) - t.Max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(b), nil
}

// Lines returns up to n of the last non-empty lines kept, trimmed and
// joined by " | "; "" when nothing was written.
func (t *Tail) Lines(n int) string {
	t.mu.Lock()
	text := string(t.buf)
	t.mu.Unlock()
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}
