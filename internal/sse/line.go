package sse

import (
	"bytes"
	"errors"
	"fmt"
	"io"
)

// bom is the UTF-8 byte order mark a stream may start with.
var bom = []byte("\xEF\xBB\xBF")

// readLine returns the next line without its ending (LF, CRLF or CR). The
// line is only valid until the next call. A last line without an ending is
// returned before io.EOF.
func (r *Reader) readLine() ([]byte, error) {
	r.line = r.line[:0]
	if cap(r.line) > keepCap {
		r.line = nil // a huge comment or field line is not kept
	}
	for {
		buf, err := r.fill()
		if err != nil {
			if errors.Is(err, io.EOF) && len(r.line) > 0 {
				return r.finish(), nil
			}
			return nil, err
		}
		if r.skipLF {
			r.skipLF = false
			if buf[0] == '\n' {
				_, _ = r.br.Discard(1)
				continue
			}
		}
		i := bytes.IndexAny(buf, "\r\n")
		if i < 0 {
			i = len(buf)
		}
		if len(r.line)+i > r.limit {
			return nil, fmt.Errorf("%w: a line passed %d bytes", ErrTooLong, r.limit)
		}
		r.line = append(r.line, buf[:i]...)
		if i == len(buf) {
			_, _ = r.br.Discard(i)
			continue
		}
		r.skipLF = buf[i] == '\r'
		_, _ = r.br.Discard(i + 1)
		return r.finish(), nil
	}
}

// fill returns the bytes buffered, reading when there are none.
func (r *Reader) fill() ([]byte, error) {
	if _, err := r.br.Peek(1); err != nil {
		return nil, err
	}
	return r.br.Peek(r.br.Buffered())
}

// finish returns the line read, without a byte order mark if it is the
// stream's first.
func (r *Reader) finish() []byte {
	line := r.line
	if !r.started {
		r.started = true
		line = bytes.TrimPrefix(line, bom)
	}
	return line
}
