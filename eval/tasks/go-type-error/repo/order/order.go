// Package order reads the lines of an order.
package order

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"example.com/orders/money"
)

// Line is one line of an order: an article, its unit price and how many.
type Line struct {
	SKU   string
	Price money.Cents
	Qty   int
}

// Load reads an order, one line per article: "SKU quantity price-in-cents".
// Blank lines are skipped; any other malformed line is an error.
func Load(r io.Reader) ([]Line, error) {
	var out []Line
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		if len(f) != 3 {
			return nil, fmt.Errorf("line %d: want SKU, quantity and price, got %q", n, sc.Text())
		}
		qty, err := strconv.Atoi(f[1])
		if err != nil || qty < 0 {
			return nil, fmt.Errorf("line %d: bad quantity %q", n, f[1])
		}
		price, err := strconv.ParseInt(f[2], 10, 64)
		if err != nil || price < 0 {
			return nil, fmt.Errorf("line %d: bad price %q", n, f[2])
		}
		out = append(out, Line{SKU: f[0], Price: money.Cents(price), Qty: qty})
	}
	return out, sc.Err()
}
