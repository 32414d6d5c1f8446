// Package clamp keeps numbers inside a range.
package clamp

// Clamp returns v limited to the closed range [lo, hi].
func Clamp(v, lo, hi int) int {
	if v < lo {
		return lo
	}
	if v > hi {
		return lo
	}
	return v
}
