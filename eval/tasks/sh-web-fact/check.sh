#!/usr/bin/env bash
# Pass: the agent searched the web before answering (the current Go
# releases are not in the repository and change twice a year), the CI
# matrix names two consecutive Go releases, the newer at least 1.25 (out on
# 2025-08-12; a model's memory from before that guesses older), and nothing
# else changed.
set -euo pipefail
grep -qx google_web_search "$EVAL_TOOLS" ||
  { echo "the agent did not search the web (its tool calls: $(paste -sd' ' "$EVAL_TOOLS"))"; exit 1; }
changed=$(git status --porcelain --untracked-files=all)
[ "$changed" = " M .github/workflows/ci.yml" ] || { echo "want only ci.yml changed; got:"; echo "$changed"; exit 1; }
# The matrix: from its go-version key to the steps (a flow or a block list).
line=$(awk '/^ *go-version:/ && !seen { seen = 1; on = 1 } /^ *steps:/ { on = 0 } on' .github/workflows/ci.yml)
[ -n "$line" ] || { echo "the matrix's go-version is gone"; exit 1; }
mapfile -t minors < <(grep -oE "1\.[0-9]+" <<<"$line" | cut -d. -f2 | sort -n)
[ "${#minors[@]}" -eq 2 ] || { echo "want two versions in: $line"; exit 1; }
[ $((minors[1] - minors[0])) -eq 1 ] || { echo "the two versions are not consecutive: $line"; exit 1; }
[ "${minors[1]}" -ge 25 ] || { echo "1.${minors[1]} is not the newest Go release: $line"; exit 1; }
