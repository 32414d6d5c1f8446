// Package bench holds companion's benchmarks that span packages: process
// start-up to the initialize answer and memory after session/new, the
// package init before main that the start-up guard bounds (init_test.go), peak
// memory of a whole one-prompt ACP session (both for the development and
// the release build), a whole headless `companion run`, the agent's own
// overhead per streamed chunk, and the first model request's bytes with
// the share of them the next request repeats (prompt_test.go), and the
// search tools at scale against rg (scale_test.go: BenchmarkScale on a
// synthetic Linux-shaped tree, BenchmarkScaleLinux in the Linux tree
// through `make bench-linux`; README.md keeps the numbers). Run them with `make bench`; they report
// medians and percentiles as benchmark metrics and never fail on time.
package bench
