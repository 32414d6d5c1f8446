package testio

import (
	"bytes"
	"io"
	"slices"
	"strings"
	"sync"
)

// Buffer is a bytes.Buffer that one goroutine (a child process's pipe, a
// logger) may write while others read it.
type Buffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// Write appends p.
func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String is everything written so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Bytes is a copy of everything written so far.
func (b *Buffer) Bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return bytes.Clone(b.buf.Bytes())
}

// LockedWriter writes to W holding Mu, the lock its owner reads W under.
type LockedWriter struct {
	Mu *sync.Mutex
	W  io.Writer
}

// Write writes p to W under Mu.
func (l LockedWriter) Write(p []byte) (int, error) {
	l.Mu.Lock()
	defer l.Mu.Unlock()
	return l.W.Write(p)
}

// Clip shortens b to at most n bytes for a failure message, marking the cut.
func Clip(b []byte, n int) string {
	if len(b) > n {
		return string(b[:n]) + "…"
	}
	return string(b)
}

// raceExitSleep is the GORACE setting the harnesses give a child: no
// pause at exit. A race-enabled binary otherwise sleeps a second when it
// exits (ThreadSanitizer's atexit_sleep_ms) so that late reports can
// print; a race still makes it exit with status 66.
const raceExitSleep = "GORACE=atexit_sleep_ms=0"

// ChildEnv is env for a companion child process started by a test: env
// itself, plus GORACE=atexit_sleep_ms=0 when env sets no GORACE. A nil env
// stays nil (the child inherits the test's environment, GORACE included).
func ChildEnv(env []string) []string {
	if env == nil {
		return nil
	}
	for _, kv := range env {
		if strings.HasPrefix(kv, "GORACE=") {
			return env
		}
	}
	return append(slices.Clip(env), raceExitSleep)
}
