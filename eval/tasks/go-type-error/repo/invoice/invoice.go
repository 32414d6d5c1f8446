// Package invoice totals orders.
package invoice

import (
	"strings"

	"example.com/orders/money"
	"example.com/orders/order"
)

// Total is what the order in text costs: the sum over its lines of price
// times quantity. A malformed order is an error.
func Total(text string) (money.Cents, error) {
	lines := order.Load(strings.NewReader(text))
	var sum money.Cents
	for _, l := range lines {
		sum += l.Price * l.Qty
	}
	return sum, nil
}
