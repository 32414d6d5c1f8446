package sse

import (
	"bytes"
	"io"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"
)

// TestLongLines: lines longer than a block, alone, after a short line of
// the same event, and after a long comment, come out whole however the
// input is split into reads.
func TestLongLines(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("0123456789abcdef", 3*blockSize/16+7)
	tests := []struct {
		name, in string
		want     []string
	}{
		{"one long line", "data: " + long + "\n\n", []string{long}},
		{"short then long", "data: a\ndata: " + long + "\n\n", []string{"a\n" + long}},
		{"long then short", "data: " + long + "\ndata: b\n\n", []string{long + "\nb"}},
		{"long comment", ":" + long + "\ndata: c\n\n", []string{"c"}},
		{"two long events", "data: " + long + "\r\n\r\ndata: x" + long + "\r\r", []string{long, "x" + long}},
		{"unended", "data: " + long, []string{long}},
	}
	for _, tt := range tests {
		for split, in := range map[string]io.Reader{
			"whole":  strings.NewReader(tt.in),
			"halves": iotest.HalfReader(strings.NewReader(tt.in)),
		} {
			r := NewReader(in, 8*blockSize)
			var got []string
			for {
				ev, err := r.Next()
				if err != nil {
					break
				}
				got = append(got, string(ev.Data))
			}
			if len(got) != len(tt.want) {
				t.Fatalf("%s, %s: %d events, want %d", tt.name, split, len(got), len(tt.want))
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("%s, %s: event %d differs (%d bytes, want %d)", tt.name, split, i, len(got[i]), len(tt.want[i]))
				}
			}
		}
	}
}

// TestHugeEventAllocations: one 32 MiB event is read with about twice its
// size allocated (its blocks, then the joined line, which becomes the
// event's data without a copy); growing a buffer by append and copying
// the line into the data cost about six times.
func TestHugeEventAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector changes allocations")
	}
	data := bytes.Repeat([]byte("x"), 32<<20)
	in := append(append([]byte("data: "), data...), "\n\n"...)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	r := NewReader(bytes.NewReader(in), 64<<20)
	ev, err := r.Next()
	runtime.ReadMemStats(&after)
	if err != nil || !bytes.Equal(ev.Data, data) {
		t.Fatalf("event of %d bytes, %v; want the %d bytes sent", len(ev.Data), err, len(data))
	}
	ratio := float64(after.TotalAlloc-before.TotalAlloc) / float64(len(data))
	t.Logf("allocated %.2f× the event", ratio)
	if ratio > 2.5 {
		t.Errorf("reading one 32 MiB event allocated %.2f× it, want at most 2.5×", ratio)
	}
}
