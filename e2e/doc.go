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
// agent, and most of its time is spent waiting on the processes it drives
// (make test runs them with -parallel 4). A test stays serial when it
// changes the test process (t.Setenv), runs the agent in process
// (inprocess_test.go), or needs the machine to itself (the fork bomb, the
// peak-RSS probe); serial tests run before the parallel ones start.
package e2e
