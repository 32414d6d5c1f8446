//go:build race

package store

// raceEnabled shrinks the long-line test, which the race detector makes
// slow byte by byte.
const raceEnabled = true
