//go:build race

package openai

// raceEnabled is true: allocation bounds are not checked.
const raceEnabled = true
