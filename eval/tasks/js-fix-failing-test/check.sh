#!/usr/bin/env bash
# Pass: the test file is as it was, and the suite plus a hidden test pass.
set -euo pipefail
cmp -s "$EVAL_TASK_DIR/repo/test/strings.test.js" test/strings.test.js || { echo "the test file was changed"; exit 1; }
cp "$EVAL_TASK_DIR/hidden/eval-hidden.test.js" test/
node --test test/ || { echo "tests fail"; exit 1; }
