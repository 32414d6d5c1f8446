// Package config reads the application's settings.
package config

import (
	"fmt"
	"strings"
)

// Config is the parsed settings.
type Config struct {
	Values map[string]string
}

// ParseCfg reads key=value lines; blank lines and lines starting with # are skipped.
func ParseCfg(text string) (Config, error) {
	c := Config{Values: map[string]string{}}
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			return c, fmt.Errorf("line %d: want key=value", i+1)
		}
		c.Values[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	return c, nil
}
