#!/usr/bin/env bash
# Pass: the message says "received", and api.py is the only file changed, by one line.
set -euo pipefail
grep -q 'no data received from' api.py || { echo "the typo is not fixed"; exit 1; }
[ -z "$(git status --porcelain --untracked-files=all | grep -v '^ M api.py$' || true)" ] || { git status --short; echo "other files changed (listed above)"; exit 1; }
stat=$(git diff --numstat -- api.py | cut -f1,2)
[ "$stat" = "$(printf '1\t1')" ] || { git diff; echo "api.py changed by more than the one line: $stat"; exit 1; }
