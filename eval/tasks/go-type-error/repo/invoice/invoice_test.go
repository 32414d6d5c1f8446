package invoice

import "testing"

func TestTotal(t *testing.T) {
	tests := []struct {
		order string
		want  string
	}{
		{"", "0.00"},
		{"A-1 2 150\n", "3.00"},
		{"A-1 2 150\nB-2 3 1005\n", "33.15"},
	}
	for _, tt := range tests {
		got, err := Total(tt.order)
		if err != nil || got.String() != tt.want {
			t.Errorf("Total(%q) = %s, %v; want %s", tt.order, got, err, tt.want)
		}
	}
}

func TestTotalRejectsABadOrder(t *testing.T) {
	if _, err := Total("A-1 2\n"); err == nil {
		t.Error("an order line without a price: no error")
	}
}
