// Command greet prints a greeting.
package main

import (
	"flag"
	"fmt"
)

func main() {
	name := flag.String("name", "world", "who to greet")
	flag.Parse()
	fmt.Println(greeting(*name))
}

// greeting is the line greet prints for name.
func greeting(name string) string {
	return "Hello, " + name + "!"
}
