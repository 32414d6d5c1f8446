//go:build unix

package procgroup

import (
	"os/exec"
	"slices"
	"testing"
	"time"
)

// TestKillReachesChildren starts a shell whose child sleeps, kills the
// group and checks nothing of it is left.
func TestKillReachesChildren(t *testing.T) {
	cmd := exec.Command("sh", "-c", "sleep 30 & sleep 30")
	// Start, as companion does: the killed sleep is re-parented to this
	// process where an earlier test made it a subreaper, and only the
	// keeper's watch of the group reaps it there.
	if err := Start(cmd); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	if !Alive(pid) {
		t.Fatal("group not alive after start")
	}
	if err := Kill(pid); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	deadline := time.Now().Add(10 * time.Second)
	for Alive(pid) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if Alive(pid) {
		t.Error("a process of the group survived Kill")
	}
}

// TestDefaultGuardLookedUpOnce: the guard is found at the first command
// and kept, so emptying PATH afterwards does not change it.
func TestDefaultGuardLookedUpOnce(t *testing.T) {
	first := defaultGuard()
	t.Setenv("PATH", t.TempDir())
	if again := defaultGuard(); !slices.Equal(first, again) {
		t.Errorf("guard changed from %q to %q: looked up again", first, again)
	}
}
