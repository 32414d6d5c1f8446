#!/usr/bin/env bash
# Pass: words are counted as before and --lines / -l count lines.
set -euo pipefail
tmp=$(mktemp)
printf 'one two three\nfour\n\nfive six\n' > "$tmp"
expect() { local want=$1; shift; local got; got=$(python3 wc.py "$@" 2>&1) || true; [ "$got" = "$want" ] || { printf '%s\n' "$got"; echo "wc.py $*: want '$want', got the lines above"; exit 1; }; }
expect 6 "$tmp"
expect 4 --lines "$tmp"
expect 4 -l "$tmp"
got=$(printf 'a b\nc\n' | python3 wc.py --lines) && [ "$got" = 2 ] || { echo "--lines on stdin: got '$got', want 2"; exit 1; }
got=$(printf 'a b\nc\n' | python3 wc.py) && [ "$got" = 3 ] || { echo "stdin: got '$got', want 3"; exit 1; }
