package report

import (
	"slices"
	"testing"

	"example.com/inventory/stock"
)

func TestLines(t *testing.T) {
	s := stock.NewStore()
	s.Add("B-2", 1)
	s.Add("A-1", 10)
	want := []string{"A-1 10", "B-2 1 reorder"}
	if got := Lines(s, 3); !slices.Equal(got, want) {
		t.Errorf("Lines = %q, want %q", got, want)
	}
	if got := Short(s, 3); !slices.Equal(got, []string{"B-2"}) || s.Avail("B-2") != 1 {
		t.Errorf("Short = %q", got)
	}
}
