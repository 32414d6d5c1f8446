// Package testio holds the small I/O helpers the test harnesses share: a
// buffer a process writes while a test reads it, a writer that shares a
// harness's lock, clipping of long lines for failure messages, and the
// temporary-folder fixtures the tool tests build their roots with.
package testio
