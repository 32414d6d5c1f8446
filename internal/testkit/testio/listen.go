package testio

import (
	"net"
	"sync"
	"sync/atomic"
	"testing"
)

// Listener is a TCP listener on 127.0.0.1 that counts the connections made
// to it: the side effect a test of "nothing connected" (a sandboxed
// command, telemetry that is off) or "something dialled" checks.
type Listener struct {
	// Addr is its host:port; Port its port.
	Addr string
	Port int
	n    atomic.Int32
}

// Accepted is how many connections it has accepted so far.
func (l *Listener) Accepted() int32 { return l.n.Load() }

// Listen starts a Listener that lives until the test ends. With hold, each
// connection stays open, never read from nor answered (a collector that
// hangs), until then; without, each is closed as soon as it is counted.
func Listen(t testing.TB, hold bool) *Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := &Listener{Addr: ln.Addr().String(), Port: ln.Addr().(*net.TCPAddr).Port}
	var mu sync.Mutex
	var held []net.Conn
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			l.n.Add(1)
			if !hold {
				c.Close()
				continue
			}
			mu.Lock()
			held = append(held, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		<-done
		mu.Lock()
		defer mu.Unlock()
		for _, c := range held {
			c.Close()
		}
	})
	return l
}
