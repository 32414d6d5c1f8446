#!/usr/bin/env bash
# new-entry.sh KIND SENTENCE: write changes/unreleased/<kind>-<slug>.md.
set -eu
kind=${1:?usage: new-entry.sh KIND SENTENCE}
text=${2:?usage: new-entry.sh KIND SENTENCE}
case $kind in fix|feature|security|docs) ;; *) echo "KIND must be fix, feature, security or docs" >&2; exit 2;; esac
slug=$(printf '%s' "$text" | tr 'A-Z' 'a-z' | tr -cs 'a-z0-9' '-' | cut -c1-40 | sed 's/^-//; s/-$//')
mkdir -p changes/unreleased
file=changes/unreleased/$kind-$slug.md
printf -- '---\nkind: %s\nentry-format: 2\n---\n%s\n' "$kind" "$text" > "$file"
echo "$file"
