// Package money formats amounts of money.
package money

import "fmt"

// Format writes cents as dollars with two decimals, e.g. 1999 as "$19.99".
func Format(cents int) string {
	sign := ""
	if cents < 0 {
		sign, cents = "-", -cents
	}
	return fmt.Sprintf("%s$%d.%d", sign, cents/100, cents%100)
}
