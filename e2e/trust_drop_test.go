//go:build unix

package e2e

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"companion/internal/testkit/acptest"
)

// sbxAlive reports whether the process whose pid is in file runs.
func sbxAlive(t *testing.T, file string) bool {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatalf("pid file %s: %v", file, err)
	}
	err = syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// sbxLines counts the lines of file; 0 when it does not exist.
func sbxLines(file string) int {
	data, _ := os.ReadFile(file)
	return strings.Count(string(data), "\n")
}

// TestTrustDroppedStopsProjectCommands (issue 16, item 1): when the editor
// says isTrusted:false after a session opened, the project's MCP server
// process is gone and stays gone, and the project's hook no longer runs;
// the user's hook still does.
func TestTrustDroppedStopsProjectCommands(t *testing.T) {
	t.Parallel()
	ws := workspace(t, nil)
	dir := t.TempDir()
	srv := sbxMCPServer(t, dir)
	pidFile, projHook, userHook := filepath.Join(dir, "proj.pid"), filepath.Join(dir, "proj-hook"), filepath.Join(dir, "user-hook")
	appendTo := func(f string) map[string]any { return map[string]any{"command": "cat > /dev/null; echo ran >> " + f} }
	e := sbxEnv(t)
	sbxUserSettings(t, e, map[string]any{"hooks": map[string]any{"BeforeAgent": []any{appendTo(userHook)}}})
	sbxWriteJSON(t, filepath.Join(ws, ".companion", "settings.json"), map[string]any{
		"hooks":      map[string]any{"BeforeAgent": []any{appendTo(projHook)}},
		"mcpServers": map[string]any{"proj": map[string]any{"command": "bash", "args": []string{srv, pidFile}}}})
	sbxAccept(t, e, ws)
	ed := acptest.Start(t, companionBin(t), []string{"acp", "--script", sbxScript(t, sbxText("one"), sbxText("two"), sbxText("three"))},
		e, acptest.NewFake().Handle)
	ed.Initialize(map[string]any{})
	id := ed.NewSession(ws)
	if !sbxWaitFile(pidFile) || !sbxAlive(t, pidFile) {
		t.Fatalf("the project's MCP server did not start:\n%s", ed.Stderr())
	}
	ed.Wait(ed.Prompt(id, "one"))
	if sbxLines(projHook) != 1 || sbxLines(userHook) != 1 {
		t.Fatalf("trusted: project hook ran %d times, user hook %d; want 1 and 1", sbxLines(projHook), sbxLines(userHook))
	}
	firstPID, _ := os.ReadFile(pidFile)

	ed.NotifyUnchecked("_companion/ide/contextUpdate", map[string]any{"sessionId": id, "isTrusted": false})
	ed.WaitUpdate(id, "current_mode_update")
	for deadline := time.Now().Add(5 * time.Second); sbxAlive(t, pidFile) && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
	if sbxAlive(t, pidFile) {
		t.Fatal("the project's MCP server still runs after the workspace lost trust")
	}
	ed.Wait(ed.Prompt(id, "two"))
	time.Sleep(1500 * time.Millisecond) // the manager's first restart comes after 1 s
	if got, _ := os.ReadFile(pidFile); string(got) != string(firstPID) {
		t.Errorf("the project's MCP server started again while the workspace is untrusted (pid %s, was %s)", got, firstPID)
	}
	if n := sbxLines(projHook); n != 1 {
		t.Errorf("the project's hook ran %d times in all, want 1: it ran after the workspace lost trust", n)
	}
	if n := sbxLines(userHook); n != 2 {
		t.Errorf("the user's hook ran %d times, want 2", n)
	}
}
