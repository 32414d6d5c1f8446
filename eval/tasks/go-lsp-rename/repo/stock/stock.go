// Package stock keeps how many units of each article a shop holds.
package stock

import "sort"

// Store holds the units on hand by article number (SKU).
type Store struct {
	units map[string]int
}

// NewStore returns an empty store.
func NewStore() *Store {
	return &Store{units: map[string]int{}}
}

// Add puts n units of sku into the store; a negative n takes them out.
func (s *Store) Add(sku string, n int) {
	s.units[sku] += n
}

// Avail returns the units of sku on hand, 0 for an unknown SKU.
func (s *Store) Avail(sku string) int {
	return s.units[sku]
}

// SKUs lists the articles the store has held, sorted.
func (s *Store) SKUs() []string {
	out := make([]string, 0, len(s.units))
	for sku := range s.units {
		out = append(out, sku)
	}
	sort.Strings(out)
	return out
}
