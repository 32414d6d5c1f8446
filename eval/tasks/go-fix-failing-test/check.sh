#!/usr/bin/env bash
# Pass: the test file is as it was, and the suite plus a hidden test pass.
set -euo pipefail
cmp -s "$EVAL_TASK_DIR/repo/clamp_test.go" clamp_test.go || { echo "clamp_test.go was changed"; exit 1; }
cp "$EVAL_TASK_DIR/hidden/eval_hidden_test.go.txt" eval_hidden_test.go
go test ./... || { echo "tests fail"; exit 1; }
