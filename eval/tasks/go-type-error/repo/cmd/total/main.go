// Command total prints what the order on standard input costs.
package main

import (
	"fmt"
	"io"
	"os"

	"example.com/orders/invoice"
)

func main() {
	text, err := io.ReadAll(os.Stdin)
	if err == nil {
		var sum fmt.Stringer
		sum, err = invoice.Total(string(text))
		if err == nil {
			fmt.Println(sum)
			return
		}
	}
	fmt.Fprintln(os.Stderr, "total:", err)
	os.Exit(1)
}
