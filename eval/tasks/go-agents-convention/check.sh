#!/usr/bin/env bash
# Pass: Mean works and follows AGENTS.md: its own file mean.go with a doc comment, a "stats: "
# error, a table test in mean_test.go, gofmt clean.
set -euo pipefail
[ -f mean.go ] || { echo "Mean is not in mean.go"; exit 1; }
grep -q '^// Mean ' mean.go || { echo "Mean has no doc comment starting with its name"; exit 1; }
[ -f mean_test.go ] && grep -q 'Mean(' mean_test.go || { echo "no test of Mean in mean_test.go"; exit 1; }
[ -z "$(gofmt -l .)" ] || { echo "not gofmt-formatted: $(gofmt -l .)"; exit 1; }
cp "$EVAL_TASK_DIR/hidden/eval_hidden_test.go.txt" eval_hidden_test.go
go vet ./... && go test ./... || { echo "vet or tests fail"; exit 1; }
