#!/usr/bin/env bash
# Pass: the module builds, vets and passes its tests, which are as they
# were (they check that a bad order is an error, so dropping order.Load's
# error fails); order/ and money/ are untouched (their API is the new one;
# the fix belongs in invoice); and the language server's diagnostics
# reached the agent in an edit's result. The compiler shows one error (the
# assignment from order.Load); the second, a Cents times an int in the
# loop, is hidden behind it until the first is fixed, and the language
# server reports it after that edit.
set -euo pipefail
python3 - "$EVAL_TRANSCRIPT" <<'PY' || exit 1
import json, sys
for line in open(sys.argv[1], encoding="utf-8"):
    try:
        m = json.loads(line)
    except ValueError:
        continue
    if m.get("type") != "user":
        continue
    for c in m.get("message", {}).get("content", []):
        if c.get("type") == "tool_result" and "The language server reports these problems" in (c.get("content") or ""):
            sys.exit(0)
sys.exit("no edit's result carried the language server's diagnostics")
PY
for f in invoice/invoice_test.go order/order_test.go; do
  cmp -s "$EVAL_TASK_DIR/repo/$f" "$f" || { echo "$f was changed"; exit 1; }
done
git diff --quiet HEAD -- order money || { echo "order/ or money/ was changed:"; git diff --stat HEAD -- order money; exit 1; }
go build ./... && go vet ./... && go test ./... || { echo "build, vet or tests fail"; exit 1; }
