// Package server serves the inventory over HTTP.
package server

import (
	"fmt"
	"net/http"
	"os"
	"strconv"
)

// envPort names the variable that overrides the port.
const envPort = "INVENTORY_" + "PORT"

// Addr is the address the server listens on.
func Addr(getenv func(string) string) string {
	port := basePort + offsetInventory
	if v, err := strconv.Atoi(getenv(envPort)); err == nil && v > 0 {
		port = v
	}
	return fmt.Sprintf(":%d", port)
}

// Run serves until the listener fails.
func Run() error {
	return http.ListenAndServe(Addr(os.Getenv), http.NotFoundHandler())
}
