// Command inventory runs the inventory server.
package main

import (
	"log"

	"example.com/inventory/server"
)

func main() {
	log.Fatal(server.Run())
}
