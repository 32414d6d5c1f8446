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
	clear(r.blocks) // after a failed read
	r.blocks, r.blocksLen = r.blocks[:0], 0
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
		if r.blocksLen+len(r.line)+i > r.limit {
			return nil, fmt.Errorf("%w: a line passed %d bytes", ErrTooLong, r.limit)
		}
		r.appendLine(buf[:i])
		if i == len(buf) {
			_, _ = r.br.Discard(i)
			continue
		}
		r.skipLF = buf[i] == '\r'
		_, _ = r.br.Discard(i + 1)
		return r.finish(), nil
	}
}

// blockSize is the line length past which a line is read in blocks
// rather than by growing one buffer, and maxBlock the largest block.
const (
	blockSize = 1 << 20
	maxBlock  = 4 << 20
)

// appendLine adds b to the line being read. A long line is read into
// blocks of growing size and joined once when it ends (see finish), so a
// huge line costs about twice its length in allocations, not the five
// times that growing one slice by append costs.
func (r *Reader) appendLine(b []byte) {
	if len(r.line)+len(b) > cap(r.line) && cap(r.line) >= blockSize {
		r.blocks = append(r.blocks, r.line)
		r.blocksLen += len(r.line)
		r.line = make([]byte, 0, max(min(2*cap(r.line), maxBlock), len(b)))
	}
	r.line = append(r.line, b...)
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
	if len(r.blocks) > 0 {
		joined := make([]byte, 0, r.blocksLen+len(r.line))
		for _, b := range r.blocks {
			joined = append(joined, b...)
		}
		r.line = append(joined, r.line...)
		clear(r.blocks)
		r.blocks, r.blocksLen = r.blocks[:0], 0
	}
	line := r.line
	if !r.started {
		r.started = true
		line = bytes.TrimPrefix(line, bom)
	}
	return line
}
