// Package procgroup starts commands in process groups of their own and
// signals whole groups, so a command and everything it started stop
// together. The shell tool, MCP servers and hooks share it. On systems
// without process groups it falls back to the single process.
package procgroup
