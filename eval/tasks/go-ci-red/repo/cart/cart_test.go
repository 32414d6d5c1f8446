package cart

import "testing"

func TestTotal(t *testing.T) {
	got := Total([]Item{{"tea", 350, 2}, {"cake", 425, 1}})
	if got != "$11.25" {
		t.Errorf("Total = %q, want $11.25", got)
	}
}
