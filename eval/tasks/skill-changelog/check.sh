#!/usr/bin/env bash
# Pass: CHANGELOG.md is untouched and one new entry in changes/unreleased/ has the skill's format:
# named fix-<slug>.md, front matter kind: fix and entry-format: 2, and a sentence about the login.
set -euo pipefail
git diff --quiet -- CHANGELOG.md || { echo "CHANGELOG.md was edited by hand"; exit 1; }
new=$(git status --porcelain --untracked-files=all -- changes/unreleased | awk '$1 == "??" {print $2}')
[ "$(printf '%s' "$new" | grep -c . || true)" = 1 ] || { echo "want exactly one new entry, got: ${new:-none}"; exit 1; }
case $new in changes/unreleased/fix-*.md) ;; *) echo "the entry is not named changes/unreleased/fix-<slug>.md: $new"; exit 1;; esac
[ "$(sed -n 1p "$new")" = "---" ] && grep -qx 'kind: fix' "$new" && grep -qx 'entry-format: 2' "$new" || { echo "the entry lacks the skill's front matter:"; cat "$new"; exit 1; }
grep -qi 'login\|session' "$new" || { echo "the entry does not mention the login:"; cat "$new"; exit 1; }
