// Package money holds amounts of money in cents, so that sums are exact.
package money

import "fmt"

// Cents is an amount of money in cents.
type Cents int64

// Times is c taken n times.
func Times(c Cents, n int) Cents {
	return c * Cents(n)
}

// String formats c as units and cents, e.g. 12.05.
func (c Cents) String() string {
	sign := ""
	if c < 0 {
		sign, c = "-", -c
	}
	return fmt.Sprintf("%s%d.%02d", sign, c/100, c%100)
}
