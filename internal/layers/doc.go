// Package layers holds no code, only the test that keeps companion's import
// graph the shape AGENTS.md draws: the core (agent/, tools/ and their
// subpackages) never reaches a protocol or front-end package (acp, rpc,
// headless, frontend, host), and every import between companion's own
// packages is one the allow-list in layers_test.go names. A new edge or a
// new package fails the test until it is added there and to AGENTS.md's
// package table; an edge the code no longer has fails it until it is
// removed, so the list stays the real picture. A third test keeps heavy
// modules out of the command: mcp-go's client and server packages (and the
// JSON-schema compiler they pull in, whose initialiser would run at every
// start).
//
// The test reads the graph with `go list`, so it needs the go command and
// no dependency beyond the standard library.
package layers
