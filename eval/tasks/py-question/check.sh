#!/usr/bin/env bash
# Pass: no file changed, and the answer names _flush_cache in store/disk.py.
set -euo pipefail
[ -z "$(git status --porcelain --untracked-files=all)" ] || { git status --short; echo "files were changed or added (listed above)"; exit 1; }
grep -q '_flush_cache' "$EVAL_ANSWER" || { echo "the answer does not say _flush_cache"; exit 1; }
grep -q 'disk\.py' "$EVAL_ANSWER" || { echo "the answer does not say disk.py"; exit 1; }
