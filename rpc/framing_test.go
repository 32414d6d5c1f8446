package rpc

import (
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"
)

// frameResult is one outcome of frameReader.next: a body or an error.
type frameResult struct {
	body string
	code int64 // the *Error's code, or 0
	err  error // a read error, when code is 0
}

func readAllFrames(fr frameReader) []frameResult {
	var out []frameResult
	for {
		body, err := fr.next()
		if e, ok := errors.AsType[*Error](err); ok {
			out = append(out, frameResult{code: e.Code})
			continue
		}
		if err != nil {
			return append(out, frameResult{err: err})
		}
		out = append(out, frameResult{body: string(body)})
	}
}

func TestFrameReaders(t *testing.T) {
	eof := frameResult{err: io.EOF}
	tests := []struct {
		name    string
		framing Framing
		in      string
		want    []frameResult
	}{
		{"lines", Newline, "a\nb\r\n\n  \nc", []frameResult{{body: "a"}, {body: "b"}, {body: "c"}, eof}},
		{"at the limit", Newline, "12345\n12345\r\n123456\nok\n",
			[]frameResult{{body: "12345"}, {body: "12345"}, {code: CodeInvalidRequest}, {body: "ok"}, eof}},
		{"too long at end of input", Newline, "1234567890", []frameResult{{code: CodeInvalidRequest}, eof}},
		{"empty", Newline, "", []frameResult{eof}},
		{"headers", ContentLength, "Content-Length: 2\r\n\r\nab\r\nContent-Length: 0\r\n\r\n",
			[]frameResult{{body: "ab"}, {body: ""}, eof}},
		{"too long body", ContentLength, "Content-Length: 9\r\n\r\n123456789Content-Length: 1\r\n\r\nx",
			[]frameResult{{code: CodeInvalidRequest}, {body: "x"}, eof}},
		{"too long body cut short", ContentLength, "Content-Length: 9\r\n\r\n1234",
			[]frameResult{{err: io.ErrUnexpectedEOF}}},
		{"body cut short", ContentLength, "Content-Length: 4\r\n\r\nab", []frameResult{{err: io.ErrUnexpectedEOF}}},
		{"headers cut short", ContentLength, "Content-Length: 4\r\n", []frameResult{{err: io.ErrUnexpectedEOF}}},
		{"resync inside garbage", ContentLength, "junk\r\nmore junk CONTENT-LENGTH: 1\r\n\r\nz",
			[]frameResult{{code: CodeParseError}, {body: "z"}, eof}},
		{"resync to end of input", ContentLength, "Content-Length: x\r\n\r\nnothing after", []frameResult{{code: CodeParseError}, eof}},
		{"resync partial token", ContentLength, "bad\ncontent-lengcontent-length: 2\n\nhi",
			[]frameResult{{code: CodeParseError}, {body: "hi"}, eof}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := readAllFrames(newFrameReader(tt.framing, strings.NewReader(tt.in), 5))
			if len(got) != len(tt.want) {
				t.Fatalf("got %+v, want %+v", got, tt.want)
			}
			for i := range got {
				g, w := got[i], tt.want[i]
				if g.body != w.body || g.code != w.code || !errors.Is(g.err, w.err) || (g.err == nil) != (w.err == nil) {
					t.Errorf("frame %d: got %+v, want %+v", i, g, w)
				}
			}
		})
	}
}

// TestLongLineNotBuffered checks that a line far over the limit is skipped
// in buffer-sized chunks rather than gathered.
func TestLongLineNotBuffered(t *testing.T) {
	const size = 8 << 20
	r := io.MultiReader(strings.NewReader(strings.Repeat("x", size)), strings.NewReader("\nnext\n"))
	lr := &lineReader{r: newBufReader(r), max: 1024}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := lr.readLine()
	runtime.ReadMemStats(&after)
	if e, ok := errors.AsType[*Error](err); !ok || e.Code != CodeInvalidRequest {
		t.Errorf("got %v, want a -32600 *Error", err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > size/8 {
		t.Errorf("skipping a %d-byte line allocated %d bytes", size, n)
	}
	if line, err := lr.readLine(); err != nil || string(line) != "next" {
		t.Errorf("after the long line: %q, %v", line, err)
	}
}
