//go:build !race

package openai

// raceEnabled is false: allocation bounds are checked.
const raceEnabled = false
