package sandbox

import (
	"errors"
	"testing"
)

// TestWindowsRefuses: every sandboxed mode fails with the one message,
// from Available and from Wrap; off runs commands as they are.
func TestWindowsRefuses(t *testing.T) {
	for _, m := range []Mode{ReadOnly, WorkspaceWrite} {
		s := New(m, false)
		if err := s.Available(); !errors.Is(err, ErrWindows) {
			t.Errorf("%s: Available = %v", m, err)
		}
		if _, err := s.Wrap([]string{`C:\w`}, []string{"cmd"}); !errors.Is(err, ErrWindows) {
			t.Errorf("%s: Wrap = %v", m, err)
		}
	}
	if argv, err := New(Off, false).Wrap(nil, []string{"cmd"}); err != nil || len(argv) != 1 {
		t.Errorf("off: %q, %v", argv, err)
	}
}
