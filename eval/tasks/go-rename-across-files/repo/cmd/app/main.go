// Command app prints its settings.
package main

import (
	"fmt"
	"os"

	"example.com/app/config"
)

func main() {
	c, err := config.ParseCfg("name=app\n")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(c.Values["name"])
}
