// Package e2e drives companion over pipes, as an editor would, with the
// scripted model behind it, and checks every message in both directions
// against the pinned ACP schema. Most tests run the `companion acp`
// wiring in the test's process (startAgent), where the race detector sees
// the agent; a smoke subset (acp_test.go) and the tests that need a real
// process (`companion run`, process death, the sandbox, the process
// environment) run the binary the first of them builds (companionBin), so
// a run of in-process tests alone builds nothing.
//
// Top-level tests call t.Parallel: each has its own HOME, workspace and
// agent (in process, the agent reads its environment only through the
// getenv it is given), and much of its time is spent waiting on the
// processes it drives (make test runs them with -parallel 4). Serial, and
// run before the parallel ones start: a test that changes the test
// process (t.Setenv), one that needs the machine to itself (the fork bomb,
// the peak-RSS probe), and the in-process twins of the binary smoke tests
// (inprocess_test.go), which stay as they were.
package e2e
