//go:build unix

package procgroup

import (
	"syscall"
	"testing"
)

// TestWithAttrKeepsOwn: Start adds the new group to attributes a caller
// set (on Windows, the raw command line cmd.exe needs) instead of
// replacing them.
func TestWithAttrKeepsOwn(t *testing.T) {
	own := &syscall.SysProcAttr{Noctty: true}
	got := withAttr(own)
	if got != own || !got.Noctty || !got.Setpgid {
		t.Errorf("withAttr = %+v, want the caller's attributes with Setpgid", got)
	}
	if a := withAttr(nil); a == nil || !a.Setpgid {
		t.Errorf("withAttr(nil) = %+v", a)
	}
}
