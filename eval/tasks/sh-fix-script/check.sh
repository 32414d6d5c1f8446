#!/usr/bin/env bash
# Pass: test.sh is as it was and passes, and backup.sh also copes with a name holding a "*" and two spaces.
set -euo pipefail
cmp -s "$EVAL_TASK_DIR/repo/test.sh" test.sh || { echo "test.sh was changed"; exit 1; }
bash ./test.sh || { echo "test.sh fails"; exit 1; }
work=$(mktemp -d)
mkdir -p "$work/s/a  b"
echo x > "$work/s/a  b/star*.txt"
touch "$work/s/other.txt"
out=$(bash ./backup.sh "$work/s" "$work/d") || { echo "backup.sh failed on a name with a star"; exit 1; }
[ "$out" = "copied 2 files" ] && [ "$(cat "$work/d/a  b/star*.txt")" = x ] || { echo "backup.sh mishandles 'a  b/star*.txt': $out"; exit 1; }
