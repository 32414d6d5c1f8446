// Package testio holds the small I/O helpers the test harnesses share: a
// buffer a process writes while a test reads it, a writer that shares a
// harness's lock, clipping of long lines for failure messages, the
// temporary-folder fixtures the tool tests build their roots with, the
// skip of a test that needs gopls, and a TCP listener that counts who
// connected to it.
package testio
