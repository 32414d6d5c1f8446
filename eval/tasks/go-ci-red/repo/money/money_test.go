package money

import "testing"

func TestFormat(t *testing.T) {
	tests := map[int]string{1999: "$19.99", 0: "$0.00", 105: "$1.05", -250: "-$2.50"}
	for cents, want := range tests {
		if got := Format(cents); got != want {
			t.Errorf("Format(%d) = %q, want %q", cents, got, want)
		}
	}
}
