// Command eval runs companion's task suite: small real tasks, each a
// starting repository, a prompt and a check script, that measure the
// agent's judgment rather than its plumbing (fix a failing test without
// touching the test, add a flag, rename across files, write a test that
// catches a bug, follow AGENTS.md, keep deletions inside the task, use a
// skill, answer without editing).
//
// For each task it copies the repository to a temporary folder, commits it
// to a fresh git repository, runs `companion run --output-format
// stream-json` there with the chosen model and approval mode, then runs the
// task's check.sh in the finished copy. It prints the pass rate, tokens,
// model requests and time per task and in total, as a table or (--json) as
// JSON. See README.md in this folder for the task layout and how to run
// the suite with a Gemini key or an OpenAI-compatible local model.
package main
