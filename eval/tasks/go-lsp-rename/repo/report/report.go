// Package report prints a store's stock for people.
package report

import (
	"fmt"

	"example.com/inventory/stock"
)

// Lines is one line per article: its SKU, its units, and "reorder" when
// fewer than min are left.
func Lines(s *stock.Store, min int) []string {
	var out []string
	for _, sku := range s.SKUs() {
		n := s.Avail(sku)
		line := fmt.Sprintf("%s %d", sku, n)
		if n < min {
			line += " reorder"
		}
		out = append(out, line)
	}
	return out
}

// Short lists the SKUs with fewer than min units.
func Short(s *stock.Store, min int) []string {
	var out []string
	for _, sku := range s.SKUs() {
		if s.Avail(sku) < min {
			out = append(out, sku)
		}
	}
	return out
}
