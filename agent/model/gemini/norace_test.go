//go:build !race

package gemini

// raceEnabled is false: allocation bounds are checked.
const raceEnabled = false
