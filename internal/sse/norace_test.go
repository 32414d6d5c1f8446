//go:build !race

package sse

// raceEnabled is false: allocation bounds are checked.
const raceEnabled = false
