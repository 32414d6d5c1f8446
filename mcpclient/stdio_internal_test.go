package mcpclient

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
)

// recv is a Receiver that records what it gets.
type recv struct {
	msgs chan string
	lost chan error
}

func (r recv) Deliver(m json.RawMessage)   { r.msgs <- string(m) }
func (r recv) Fail(json.RawMessage, error) {}
func (r recv) Lost(err error)              { r.lost <- err }

// TestStdioLines: long lines arrive whole, blank lines are skipped, a last
// line without newline still counts, and the end of the output is a loss.
func TestStdioLines(t *testing.T) {
	r, w := io.Pipe()
	_, sink := io.Pipe()
	rc := recv{msgs: make(chan string, 8), lost: make(chan error, 1)}
	s := NewStdio(r, sink)
	if err := s.Start(context.Background(), rc); err != nil {
		t.Fatal(err)
	}
	long := `{"x":"` + strings.Repeat("a", 300<<10) + `"}`
	go func() {
		_, _ = io.WriteString(w, long+"\n\n  \n{\"a\":1}\n{\"b\":2}")
		_ = w.Close()
	}()
	for _, want := range []string{long, `{"a":1}`, `{"b":2}`} {
		if got := <-rc.msgs; got != want {
			t.Fatalf("message of %d bytes, want %d: %.40q", len(got), len(want), got)
		}
	}
	if err := <-rc.lost; err == nil || !strings.Contains(err.Error(), "closed its output") {
		t.Errorf("end = %v", err)
	}
	_ = s.Close()
}
