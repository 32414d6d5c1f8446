// Package cli is the wiring behind companion's commands, importable so
// tests can run the whole agent in their own process: the model flags
// shared by `companion acp` and `companion run`, settings loading, the
// built-in tool set, and the functions that serve ACP and run headless
// with a host.Models model source.
//
// cmd/companion keeps flags and subcommands only. cli may import any
// companion package; nothing but cmd/companion, tests and benchmarks
// imports cli.
package cli
