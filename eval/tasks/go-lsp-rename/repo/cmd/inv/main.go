// Command inv prints the stock of a few articles.
package main

import (
	"fmt"
	"os"

	"example.com/inventory/report"
	"example.com/inventory/stock"
)

func main() {
	s := stock.NewStore()
	s.Add("A-1", 4)
	s.Add("C-3", 12)
	for _, line := range report.Lines(s, 5) {
		fmt.Println(line)
	}
	if s.Avail("A-1") == 0 {
		os.Exit(1)
	}
}
