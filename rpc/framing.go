package rpc

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strconv"
	"strings"
)

// readBufferSize is the bufio buffer under both framings; lines longer than
// this are gathered chunk by chunk.
const readBufferSize = 64 << 10

// maxHeaderLine bounds one Content-Length header line.
const maxHeaderLine = 1024

// frameReader yields one message body at a time. next returns either a body,
// an *Error to send to the peer (id null) before reading on, or a read error
// that ends the connection (io.EOF on a clean end of input).
type frameReader interface {
	next() ([]byte, error)
}

// newFrameReader returns the reader for framing f over r.
func newFrameReader(f Framing, r io.Reader, maxBytes int) frameReader {
	br := newBufReader(r)
	if f == ContentLength {
		return &headerReader{r: br, max: maxBytes}
	}
	return &lineReader{r: br, max: maxBytes}
}

// newBufReader returns the buffered reader both framings read through.
func newBufReader(r io.Reader) *bufio.Reader {
	return bufio.NewReaderSize(r, readBufferSize)
}

// tooLarge is the error answered for a message over the limit.
func tooLarge(limit int) *Error {
	return Errorf(CodeInvalidRequest, "message too large: the limit is %d bytes", limit)
}

// lineReader reads newline-delimited messages.
type lineReader struct {
	r   *bufio.Reader
	max int
}

func (l *lineReader) next() ([]byte, error) {
	for {
		line, err := l.readLine()
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, err
		}
		if line = bytes.TrimSpace(line); len(line) > 0 {
			return line, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// readLine returns the next line without its "\n". A line longer than the
// limit is consumed up to its newline without being kept and reported as an
// *Error. At the end of input it returns what it has with io.EOF.
func (l *lineReader) readLine() ([]byte, error) {
	var line []byte
	skipping := false
	for {
		chunk, err := l.r.ReadSlice('\n')
		content := chunk
		if err == nil {
			content = bytes.TrimSuffix(chunk[:len(chunk)-1], []byte("\r"))
		}
		if !skipping && len(line)+len(content) > l.max {
			skipping, line = true, nil
		}
		if !skipping {
			line = append(line, content...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if skipping && (err == nil || errors.Is(err, io.EOF)) {
			return nil, tooLarge(l.max)
		}
		return line, err
	}
}

// headerReader reads messages framed by Content-Length headers. After a bad
// header block it resynchronises by skipping input up to the next
// "Content-Length:".
type headerReader struct {
	r      *bufio.Reader
	max    int
	resync bool
}

func (h *headerReader) next() ([]byte, error) {
	n, err := h.readHeaders()
	if err != nil {
		return nil, err
	}
	if n > int64(h.max) {
		if _, err := io.CopyN(io.Discard, h.r, n); err != nil {
			return nil, noEOF(err)
		}
		return nil, tooLarge(h.max)
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(h.r, body); err != nil {
		return nil, noEOF(err)
	}
	return body, nil
}

// noEOF turns an end of input inside a message into io.ErrUnexpectedEOF.
func noEOF(err error) error {
	if errors.Is(err, io.EOF) {
		return io.ErrUnexpectedEOF
	}
	return err
}

// badHeader marks the reader for resynchronisation and returns the error
// answered to the peer.
func (h *headerReader) badHeader(format string, args ...any) error {
	h.resync = true
	return Errorf(CodeParseError, "invalid message header: "+format, args...)
}

// readHeaders reads one header block and returns its Content-Length.
// Blank lines before a block are skipped; other headers are ignored.
func (h *headerReader) readHeaders() (int64, error) {
	length, started := int64(-1), false
	for {
		line, err := h.nextHeaderLine(started)
		if err != nil {
			return 0, err
		}
		if line == "" {
			if !started {
				continue
			}
			if length < 0 {
				return 0, h.badHeader("no Content-Length header")
			}
			return length, nil
		}
		started = true
		name, value, ok := strings.Cut(line, ":")
		if !ok || !isToken(name) {
			return 0, h.badHeader("malformed header line %q", clip(line))
		}
		if strings.EqualFold(name, "Content-Length") {
			value = strings.TrimSpace(value)
			n, err := strconv.ParseInt(value, 10, 64)
			if err != nil || n < 0 {
				return 0, h.badHeader("bad Content-Length %q", clip(value))
			}
			length = n
		}
	}
}

// nextHeaderLine returns the next header line. While resynchronising it
// first skips input up to the next "Content-Length:" and returns that line.
func (h *headerReader) nextHeaderLine(inBlock bool) (string, error) {
	if !h.resync {
		return h.readHeaderLine(inBlock)
	}
	if err := h.skipToContentLength(); err != nil {
		return "", err
	}
	h.resync = false
	value, err := h.readHeaderLine(true)
	if err != nil {
		return "", err
	}
	return "Content-Length:" + value, nil
}

// readHeaderLine reads one line, without "\r\n" or "\n". Inside a header
// block the end of input is unexpected.
func (h *headerReader) readHeaderLine(inBlock bool) (string, error) {
	var sb strings.Builder
	for {
		b, err := h.r.ReadByte()
		if err != nil {
			if inBlock || sb.Len() > 0 {
				return "", noEOF(err)
			}
			return "", err
		}
		if b == '\n' {
			return strings.TrimSuffix(sb.String(), "\r"), nil
		}
		if sb.Len() >= maxHeaderLine {
			return "", h.badHeader("header line longer than %d bytes", maxHeaderLine)
		}
		sb.WriteByte(b)
	}
}

// contentLengthToken is matched case-insensitively while resynchronising.
// Its first letter occurs nowhere else in it, so a mismatch can restart the
// match at the current byte.
const contentLengthToken = "content-length:"

// skipToContentLength discards input up to and including the next
// "Content-Length:" (in any case).
func (h *headerReader) skipToContentLength() error {
	matched := 0
	for matched < len(contentLengthToken) {
		b, err := h.r.ReadByte()
		if err != nil {
			return err
		}
		switch lower(b) {
		case contentLengthToken[matched]:
			matched++
		case contentLengthToken[0]:
			matched = 1
		default:
			matched = 0
		}
	}
	return nil
}

func lower(b byte) byte {
	if 'A' <= b && b <= 'Z' {
		return b + 'a' - 'A'
	}
	return b
}

// isToken reports whether s is a valid header field name (RFC 9110 token).
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`"(),/:;<=>?@[\]{}`, c) >= 0 {
			return false
		}
	}
	return true
}

// clip shortens s for an error message.
func clip(s string) string {
	const n = 40
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
