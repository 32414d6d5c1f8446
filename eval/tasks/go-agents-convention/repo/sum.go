// Package stats has small statistics helpers.
package stats

// Sum returns the sum of xs (0 for none).
func Sum(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	return s
}
