package stats

import "testing"

func TestSum(t *testing.T) {
	tests := []struct {
		name string
		xs   []float64
		want float64
	}{
		{"none", nil, 0},
		{"some", []float64{1, 2, 3.5}, 6.5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Sum(tt.xs); got != tt.want {
				t.Errorf("Sum(%v) = %v, want %v", tt.xs, got, tt.want)
			}
		})
	}
}
