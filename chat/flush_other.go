//go:build !linux

package chat

import "io"

// terminalFlush is nil off Linux: the reader's own pending line is still
// dropped before a question, the terminal's queue is not.
func terminalFlush(io.Reader) func() { return nil }
