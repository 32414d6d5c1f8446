package mcpclient

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
)

// maxLine bounds one message on stdio; a longer line ends the connection.
const maxLine = 64 << 20

// Stdio is the stdio transport: newline-delimited JSON, written to a
// server's stdin and read from its stdout. The caller starts the process
// and hands over its pipes; Close closes both (when they are io.Closers),
// which ends the reading goroutine.
type Stdio struct {
	r io.Reader
	w io.Writer

	// wmu serialises writes.
	wmu sync.Mutex
	// done is closed when the reader has ended.
	done      chan struct{}
	started   atomic.Bool
	closeOnce sync.Once
}

// NewStdio returns a transport reading the server's messages from r (its
// stdout) and writing ours to w (its stdin).
func NewStdio(r io.Reader, w io.Writer) *Stdio {
	return &Stdio{r: r, w: w, done: make(chan struct{})}
}

// Start starts reading.
func (s *Stdio) Start(_ context.Context, rc Receiver) error {
	s.started.Store(true)
	go s.read(rc)
	return nil
}

// read delivers each non-empty line, then reports the stream's end.
func (s *Stdio) read(rc Receiver) {
	defer close(s.done)
	br := bufio.NewReaderSize(s.r, 64<<10)
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		line = append(line, chunk...)
		if errors.Is(err, bufio.ErrBufferFull) {
			if len(line) > maxLine {
				rc.Lost(fmt.Errorf("a message from the server is longer than %d bytes", maxLine))
				return
			}
			continue
		}
		if msg := bytes.TrimSpace(line); len(msg) > 0 {
			rc.Deliver(json.RawMessage(bytes.Clone(msg)))
		}
		line = line[:0]
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = errors.New("the server closed its output")
			}
			rc.Lost(err)
			return
		}
	}
}

// Send writes msg and a newline.
func (s *Stdio) Send(_ context.Context, msg json.RawMessage) error {
	if bytes.IndexByte(msg, '\n') >= 0 {
		var buf bytes.Buffer
		if err := json.Compact(&buf, msg); err != nil {
			return err
		}
		msg = buf.Bytes()
	}
	s.wmu.Lock()
	defer s.wmu.Unlock()
	if _, err := s.w.Write(append(bytes.Clone(msg), '\n')); err != nil {
		return transportErr(err)
	}
	return nil
}

// Close closes both pipes and waits for the reader to end.
func (s *Stdio) Close() error {
	s.closeOnce.Do(func() {
		if c, ok := s.w.(io.Closer); ok {
			_ = c.Close()
		}
		if c, ok := s.r.(io.Closer); ok {
			_ = c.Close()
		}
		if s.started.Load() {
			<-s.done
		}
	})
	return nil
}
