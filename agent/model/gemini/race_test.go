//go:build race

package gemini

// raceEnabled is true: allocation bounds are not checked.
const raceEnabled = true
