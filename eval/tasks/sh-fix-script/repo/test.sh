#!/usr/bin/env bash
# test.sh: backup.sh must copy files whose names have spaces and keep their folders.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src/my docs" "$work/src/plain"
echo one > "$work/src/my docs/first note.txt"
echo two > "$work/src/plain/b.txt"
echo three > "$work/src/top level.md"
out=$("$here/backup.sh" "$work/src" "$work/dest dir")
[ "$out" = "copied 3 files" ] || { echo "FAIL: output was: $out"; exit 1; }
[ "$(cat "$work/dest dir/my docs/first note.txt")" = one ] || { echo "FAIL: first note"; exit 1; }
[ "$(cat "$work/dest dir/plain/b.txt")" = two ] || { echo "FAIL: b.txt"; exit 1; }
[ "$(cat "$work/dest dir/top level.md")" = three ] || { echo "FAIL: top level.md"; exit 1; }
echo PASS
