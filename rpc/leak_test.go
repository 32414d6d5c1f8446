package rpc

import (
	"bytes"
	"io"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// checkNoLeaks fails if goroutines running this package's or jsonrpc2's
// code are still alive once the ones that were exiting have had time to.
// It must not run beside parallel tests that hold connections open.
func checkNoLeaks(t *testing.T) {
	t.Helper()
	var stacks string
	for range 500 {
		stacks = leakedStacks()
		if stacks == "" {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Errorf("leaked goroutines:\n%s", stacks)
}

// leakedStacks returns the stacks of goroutines in this package's non-test
// code or in jsonrpc2, excluding the caller's.
func leakedStacks() string {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	var leaked []string
	for g := range strings.SplitSeq(string(buf), "\n\n") {
		if strings.Contains(g, "leakedStacks") || strings.Contains(g, "_test.go") && !strings.Contains(g, "rpc.(*Conn)") {
			continue
		}
		if strings.Contains(g, "companion/rpc.") || strings.Contains(g, "sourcegraph/jsonrpc2") {
			leaked = append(leaked, g)
		}
	}
	return strings.Join(leaked, "\n\n")
}

// lockedBuffer is an io.WriteCloser safe for concurrent use.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// readWriteCloser joins a reader and a writer, as stdin and stdout are.
type readWriteCloser struct {
	io.ReadCloser
	w io.Writer
}

func (rw readWriteCloser) Write(p []byte) (int, error) { return rw.w.Write(p) }
