// Package acptest plays the editor in end-to-end tests: it runs companion
// (the real binary, Start, or its ACP wiring in the test's process,
// StartServe), speaks ACP to it over pipes, answers its fs and permission
// requests, records every session/update, and checks every line in both
// directions against the pinned schema.
package acptest
