package rpc

import (
	"io"
	"runtime"
	"strings"
	"testing"
	"time"

	"companion/internal/testkit/testio"
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

// lockedBuffer is a buffer the connection writes while the test reads it.
type lockedBuffer = testio.Buffer

// readWriteCloser joins a reader and a writer, as stdin and stdout are.
type readWriteCloser struct {
	io.ReadCloser
	w io.Writer
}

func (rw readWriteCloser) Write(p []byte) (int, error) { return rw.w.Write(p) }
