#!/usr/bin/env bash
# Pass: the test file is as it was, and the suite plus a hidden test pass.
set -euo pipefail
cmp -s "$EVAL_TASK_DIR/repo/tests/test_calendar_utils.py" tests/test_calendar_utils.py || { echo "the test file was changed"; exit 1; }
cp "$EVAL_TASK_DIR/hidden/test_eval_hidden.py" tests/
python3 -m unittest -q || { echo "tests fail"; exit 1; }
n=$(python3 -m unittest -v 2>&1 | grep -c ' ok$' || true)
[ "$n" -ge 3 ] || { echo "only $n tests ran"; exit 1; }
