//go:build race

package sse

// raceEnabled is true: allocation bounds are not checked.
const raceEnabled = true
