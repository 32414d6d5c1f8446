package sandbox

import (
	"os"
	"testing"
)

// TestMain lets the test binary be the Landlock helper, as companion is.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == HelperCommand {
		os.Exit(RunHelper(os.Args[2:]))
	}
	os.Exit(m.Run())
}
