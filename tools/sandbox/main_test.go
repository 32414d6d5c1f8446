package sandbox

import (
	"io"
	"os"
	"testing"
)

// TestMain lets the test binary be the Landlock helper, as companion is.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == HelperCommand {
		os.Exit(RunHelper(os.Args[2:]))
	}
	if os.Getenv(holderEnv) == "1" {
		os.Exit(runHolder())
	}
	os.Exit(m.Run())
}

// holderEnv makes the test binary a stand-in for companion (see TestMain):
// a process that holds a secret in its environment, makes itself
// non-dumpable as companion's main does, and waits for its standard input
// to end.
const holderEnv = "SANDBOX_TEST_HOLDER"

// holderSecret is the secret in the holder's environment.
const holderSecret = "mark-secret-4711"

// runHolder is the holder's body.
func runHolder() int {
	if err := NoDump(); err != nil {
		return 1
	}
	os.Stdout.WriteString("ready\n")
	_, _ = io.Copy(io.Discard, os.Stdin)
	return 0
}
