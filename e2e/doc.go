// Package e2e drives companion over pipes, as an editor would, with the
// scripted model behind it, and checks every message in both directions
// against the pinned ACP schema. Most tests run the `companion acp`
// wiring in the test's process (startAgent), where the race detector sees
// the agent; a smoke subset (acp_test.go) and the tests that need a real
// process (`companion run`, process death, the sandbox, the process
// environment) run the binary the first of them builds (companionBin), so
// a run of in-process tests alone builds nothing.
package e2e
