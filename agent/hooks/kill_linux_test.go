package hooks

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// alive reports whether process pid exists and is not a zombie.
func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// The state follows the command name, which is in parentheses.
	rest := string(b[strings.LastIndexByte(string(b), ')')+1:])
	state := strings.Fields(rest)[0]
	return state != "Z" && state != "X"
}

// waitGone waits until pid has died; SIGKILL is delivered asynchronously.
// The bound only keeps a broken build from hanging; it is no timing claim.
func waitGone(t *testing.T, pid int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
		if !alive(pid) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Errorf("process %d is still running", pid)
}

// readPid reads a pid a hook wrote.
func readPid(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("the hook did not record its child: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

func TestRunTimeoutKillsGroup(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r := newRunner(BeforeTool, Hook{
		Command: `sleep 1000 & echo $! > child.pid; echo '{"decision": "deny"}'; wait`,
		// Long enough for the shell to start and record its child on a
		// loaded machine; the hook itself would run for ever.
		Timeout: time.Second,
	})
	got, err := r.Run(context.Background(), BeforeTool, Input{ToolName: "x", Cwd: dir})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	checkErrors(t, got.Errors, []error{ErrTimeout})
	if got.Decision != "" {
		t.Errorf("Decision = %q, want none from a hook that timed out", got.Decision)
	}
	if msg := got.Errors[0].Error(); !strings.Contains(msg, "timed out after 1s") {
		t.Errorf("error %q does not say it timed out", msg)
	}
	waitGone(t, readPid(t, filepath.Join(dir, "child.pid")))
}

func TestRunCancelKillsGroup(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r := newRunner(AfterAgent, Hook{
		Command: `sleep 1000 & echo $! > child.tmp && mv child.tmp child.pid; wait`,
		Timeout: time.Hour,
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := r.Run(ctx, AfterAgent, Input{Cwd: dir})
		done <- err
	}()
	pidFile := filepath.Join(dir, "child.pid")
	for {
		if _, err := os.Stat(pidFile); err == nil {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("Run after cancel: err = %v, want context.Canceled", err)
	}
	waitGone(t, readPid(t, pidFile))
}
