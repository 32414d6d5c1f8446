#!/usr/bin/env bash
# Pass: no file changed, and the answer names port 7421 and INVENTORY_PORT.
set -euo pipefail
[ -z "$(git status --porcelain --untracked-files=all)" ] || { git status --short; echo "files were changed or added (listed above)"; exit 1; }
grep -q '7421' "$EVAL_ANSWER" || { echo "the answer does not say 7421"; exit 1; }
grep -q 'INVENTORY_PORT' "$EVAL_ANSWER" || { echo "the answer does not say INVENTORY_PORT"; exit 1; }
