// Package cart adds up a shopping cart.
package cart

import "example.com/shop/money"

// Item is one line of a cart.
type Item struct {
	Name  string
	Cents int
	Qty   int
}

// Total is the cart's total, formatted.
func Total(items []Item) string {
	sum := 0
	for _, it := range items {
		sum += it.Cents * it.Qty
	}
	return money.Format(sum)
}
