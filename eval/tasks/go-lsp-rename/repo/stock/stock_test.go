package stock

import "testing"

func TestAddAndAvail(t *testing.T) {
	s := NewStore()
	s.Add("A-1", 5)
	s.Add("A-1", -2)
	if got := s.Avail("A-1"); got != 3 {
		t.Errorf("Avail(A-1) = %d, want 3", got)
	}
	if got := s.Avail("missing"); got != 0 {
		t.Errorf("Avail(missing) = %d, want 0", got)
	}
}
