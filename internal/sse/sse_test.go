package sse

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"companion/internal/testkit/testio"
)

var update = flag.Bool("update", false, "rewrite the .golden files under testdata/")

// render reads every event of in and prints one JSON line per event, then
// the error that ended the stream.
func render(in io.Reader, limit int) string {
	var b strings.Builder
	r := NewReader(in, limit)
	for {
		ev, err := r.Next()
		if err != nil {
			fmt.Fprintf(&b, "end: %v\n", err)
			return b.String()
		}
		line, _ := json.Marshal(struct {
			Type string `json:"type"`
			Data string `json:"data"`
			ID   string `json:"id"`
			Done bool   `json:"done"`
		}{ev.Type, string(ev.Data), ev.ID, ev.Done()})
		b.Write(line)
		b.WriteByte('\n')
	}
}

// TestGolden reads each testdata/*.sse stream whole, one byte at a time
// and in odd-sized pieces, and compares the events with its .golden file.
func TestGolden(t *testing.T) {
	t.Parallel()
	inputs, err := filepath.Glob("testdata/*.sse")
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no inputs: %v", err)
	}
	for _, in := range inputs {
		t.Run(filepath.Base(in), func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			got := render(bytes.NewReader(data), 0)
			golden := strings.TrimSuffix(in, ".sse") + ".golden"
			testio.Golden(t, golden, []byte(got), *update)
			for name, r := range map[string]io.Reader{
				"one byte at a time": iotest.OneByteReader(bytes.NewReader(data)),
				"halves":             iotest.HalfReader(bytes.NewReader(data)),
			} {
				if split := render(r, 0); split != got {
					t.Errorf("%s: events:\n%s\nwant:\n%s", name, split, got)
				}
			}
		})
	}
}

func TestLimit(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in string
		limit    int
		want     string // the rendered stream
	}{
		{"line at the limit", "data: 12345678\n\n", 14, `{"type":"","data":"12345678","id":"","done":false}` + "\nend: EOF\n"},
		{"line over the limit", "data: 123456789\n\n", 14, "end: sse: line or event longer than the limit: a line passed 14 bytes\n"},
		{"unended line over the limit", "data: " + strings.Repeat("x", 100), 50, "end: sse: line or event longer than the limit: a line passed 50 bytes\n"},
		{"comment over the limit", ":" + strings.Repeat("x", 100) + "\n", 50, "end: sse: line or event longer than the limit: a line passed 50 bytes\n"},
		{"event over the limit", "data: 1234\ndata: 1234\ndata: 1234\n\n", 12, "end: sse: line or event longer than the limit: an event's data passed 12 bytes\n"},
		{"events before the long one", "data: ok\n\ndata: " + strings.Repeat("y", 40) + "\n\n", 20,
			`{"type":"","data":"ok","id":"","done":false}` + "\nend: sse: line or event longer than the limit: a line passed 20 bytes\n"},
	}
	for _, tt := range tests {
		if got := render(strings.NewReader(tt.in), tt.limit); got != tt.want {
			t.Errorf("%s: got\n%s\nwant\n%s", tt.name, got, tt.want)
		}
	}
	r := NewReader(strings.NewReader("data: 123456789\n\n"), 10)
	if _, err := r.Next(); !errors.Is(err, ErrTooLong) {
		t.Errorf("error = %v, want ErrTooLong", err)
	}
	if _, err := r.Next(); !errors.Is(err, ErrTooLong) {
		t.Errorf("second Next = %v, want ErrTooLong again", err)
	}
}

// TestReadError: a broken body ends the stream with its error, after the
// events that were whole, and the partial event is not returned.
func TestReadError(t *testing.T) {
	t.Parallel()
	in := io.MultiReader(strings.NewReader("data: whole\n\ndata: partial\n"), iotest.ErrReader(io.ErrUnexpectedEOF))
	r := NewReader(in, 0)
	ev, err := r.Next()
	if err != nil || string(ev.Data) != "whole" {
		t.Fatalf("first = %q, %v; want whole", ev.Data, err)
	}
	for range 2 {
		if ev, err := r.Next(); !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("next = %q, %v; want io.ErrUnexpectedEOF", ev.Data, err)
		}
	}
}

// FuzzReader checks, for any input, that the reader neither panics nor
// returns data over its limit, and that how the input is split into reads
// changes nothing. The seeds are the golden inputs.
func FuzzReader(f *testing.F) {
	inputs, _ := filepath.Glob("testdata/*.sse")
	for _, in := range inputs {
		data, err := os.ReadFile(in)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, 0)
	}
	f.Add([]byte("data: a\r"), 3)
	f.Add([]byte(":\r\n\rdata\n\n"), 1)
	f.Fuzz(func(t *testing.T, data []byte, limit int) {
		limit = 1 + abs(limit)%64
		whole := render(bytes.NewReader(data), limit)
		if bytewise := render(iotest.OneByteReader(bytes.NewReader(data)), limit); bytewise != whole {
			t.Fatalf("split reads differ:\n%s\nwhole:\n%s", bytewise, whole)
		}
		r := NewReader(bytes.NewReader(data), limit)
		for {
			ev, err := r.Next()
			if err != nil {
				break
			}
			if len(ev.Data) > limit {
				t.Fatalf("data of %d bytes over the limit %d", len(ev.Data), limit)
			}
		}
	})
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// TestUnterminatedReturned: the last event is returned at the end of the
// stream even without its closing blank line.
func TestUnterminatedReturned(t *testing.T) {
	t.Parallel()
	rd := NewReader(strings.NewReader("data: a\n\ndata: b\n"), 0)
	var got []string
	for {
		ev, err := rd.Next()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				t.Fatal(err)
			}
			break
		}
		got = append(got, string(ev.Data))
	}
	if want := []string{"a", "b"}; !slices.Equal(got, want) {
		t.Errorf("events %q, want %q", got, want)
	}
}
