// Package config turns settings files, the environment and flags into one
// Config value. It imports nothing of companion's own.
package config
