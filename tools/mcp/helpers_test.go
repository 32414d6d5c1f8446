package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"runtime"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"companion/tools"
)

// fakeServer is the configuration of a fake stdio server in mode.
func fakeServer(name, mode string) ServerConfig {
	return ServerConfig{Name: name, Command: os.Args[0], Env: map[string]string{fakeModeEnv: mode}}
}

// testOptions are fast options for tests; onChange counts OnChange calls.
func testOptions(t *testing.T, onChange *atomic.Int32) Options {
	return Options{
		Log:            slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelDebug})),
		ConnectTimeout: 20 * time.Second,
		Backoff:        20 * time.Millisecond,
		MaxBackoff:     200 * time.Millisecond,
		MaxRestarts:    3,
		StopGrace:      200 * time.Millisecond,
		OnChange: func() {
			if onChange != nil {
				onChange.Add(1)
			}
		},
	}
}

// testWriter sends log output to t.Log.
type testWriter struct{ t *testing.T }

func (w testWriter) Write(b []byte) (int, error) {
	w.t.Helper()
	w.t.Log(strings.TrimRight(string(b), "\n"))
	return len(b), nil
}

// startManager starts a manager for servers and closes it when the test
// ends, checking that nothing it started is left.
func startManager(t *testing.T, servers []ServerConfig, opts Options) *Manager {
	t.Helper()
	m := NewManager(servers, opts)
	m.Start(context.Background())
	t.Cleanup(func() { closeAndCheck(t, m) })
	return m
}

// closeAndCheck closes m and fails the test if a server process or one of
// the package's goroutines is still there.
func closeAndCheck(t *testing.T, m *Manager) {
	t.Helper()
	var pids []int
	for _, st := range m.Status() {
		if st.PID != 0 {
			pids = append(pids, st.PID)
		}
	}
	if err := m.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	for _, pid := range pids {
		if processAlive(pid) {
			t.Errorf("server process %d is still alive after Close", pid)
		}
	}
	deadline := time.Now().Add(20 * time.Second)
	for !noLeftGoroutines() {
		if time.Now().After(deadline) {
			t.Errorf("goroutines left after Close:\n%s", leftGoroutines())
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// waitFor polls cond until it holds, failing the test after 20 s (a safety
// limit, not a timing assertion).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for: %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// noLeftGoroutines reports whether no goroutine runs code of this package
// (other than tests), of the MCP client or of mcp-go.
func noLeftGoroutines() bool {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "companion/tools/mcp.Test") || strings.Contains(g, "companion/tools/mcp.Benchmark") ||
			strings.Contains(g, "testing.tRunner") {
			continue
		}
		if strings.Contains(g, "companion/tools/mcp.") || strings.Contains(g, "companion/mcpclient.") ||
			strings.Contains(g, "mark3labs/mcp-go") {
			return false
		}
	}
	return true
}

// leftGoroutines returns the stacks noLeftGoroutines objects to, for
// failure messages.
func leftGoroutines() string {
	buf := make([]byte, 1<<20)
	return string(buf[:runtime.Stack(buf, true)])
}

// processAlive reports whether pid is a live (not zombie) process.
func processAlive(pid int) bool {
	if data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil {
		// The state follows the command name in parentheses.
		if i := strings.LastIndexByte(string(data), ')'); i >= 0 && i+2 < len(data) {
			return data[i+2] != 'Z'
		}
		return true
	} else if !errors.Is(err, os.ErrNotExist) {
		p, err := os.FindProcess(pid)
		return err == nil && p.Signal(syscall.Signal(0)) == nil
	}
	return false
}

// findTool returns the tool called name.
func findTool(t *testing.T, m *Manager, name string) tools.Tool {
	t.Helper()
	for _, tl := range m.Tools() {
		if tl.Name() == name {
			return tl
		}
	}
	t.Fatalf("no tool %q among %v", name, toolNames(m))
	return nil
}

// toolNames lists the manager's tool names.
func toolNames(m *Manager) []string {
	var names []string
	for _, tl := range m.Tools() {
		names = append(names, tl.Name())
	}
	return names
}

// hasTool reports whether the manager offers name.
func hasTool(m *Manager, name string) bool {
	for _, n := range toolNames(m) {
		if n == name {
			return true
		}
	}
	return false
}

// run prepares and executes tool name with args.
func run(t *testing.T, m *Manager, name string, args any) *tools.Result {
	t.Helper()
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	inv, err := findTool(t, m, name).Prepare(&tools.Env{}, raw)
	if err != nil {
		t.Fatalf("Prepare %s: %v", name, err)
	}
	res, err := inv.Execute(context.Background(), nil)
	if err != nil {
		t.Fatalf("Execute %s: %v", name, err)
	}
	return res
}

// status returns the status of server name.
func status(t *testing.T, m *Manager, name string) ServerStatus {
	t.Helper()
	for _, st := range m.Status() {
		if st.Name == name {
			return st
		}
	}
	t.Fatalf("no server %q", name)
	return ServerStatus{}
}

// stateIs returns a condition: server name is in state want.
func stateIs(m *Manager, name string, want State) func() bool {
	return func() bool {
		for _, st := range m.Status() {
			if st.Name == name {
				return st.State == want
			}
		}
		return false
	}
}
