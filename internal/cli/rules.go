package cli

import (
	"companion/config"
	"companion/host"
)

// CheckRules reads cfg's permission rules as a session would
// (host.Rules), so `companion config show` reports a rule that names no
// tool, with its file and line, before any session fails on it; notes
// name the allow rules a session would leave out.
func CheckRules(cfg config.Config) (notes []string, err error) {
	_, notes, err = host.Rules(cfg, nil)
	return notes, err
}

// LanguageServers describes the language servers a session in dir would
// use (host.LanguageServers): where each is found, or how to install it.
func LanguageServers(cfg config.Config, dir string) []string {
	return host.LanguageServers(cfg, dir)
}
