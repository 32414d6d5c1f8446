#!/usr/bin/env bash
# Pass: the agent asked the language server (lsp_rename, or lsp_references
# to find the uses) instead of renaming by text; no Avail is left as a word
# anywhere (callers in three packages, tests, comments, test messages);
# the method is Available and a hidden test calls it; the module builds,
# vets and passes its tests.
set -euo pipefail
grep -qxE 'lsp_rename|lsp_references' "$EVAL_TOOLS" ||
  { echo "the agent used neither lsp_rename nor lsp_references (its tool calls: $(paste -sd' ' "$EVAL_TOOLS"))"; exit 1; }
if grep -rnw --exclude-dir=.git 'Avail' .; then echo "Avail is still there"; exit 1; fi
grep -q '^func (s \*Store) Available(sku string) int' stock/stock.go || { echo "no method Available in stock/stock.go"; exit 1; }
grep -q 'Available' report/report.go || { echo "report does not call Available"; exit 1; }
grep -q 'Available' cmd/inv/main.go || { echo "cmd/inv does not call Available"; exit 1; }
cp "$EVAL_TASK_DIR/hidden/eval_hidden_test.go.txt" stock/eval_hidden_test.go
go build ./... && go vet ./... && go test ./... || { echo "build, vet or tests fail"; exit 1; }
