//go:build !race

package store

// raceEnabled is false: tests run at full size.
const raceEnabled = false
