#!/usr/bin/env bash
# Pass: slug_test.go passes on the real code and fails on each of three broken copies of it.
set -euo pipefail
[ -f slug_test.go ] || { echo "no slug_test.go"; exit 1; }
cmp -s "$EVAL_TASK_DIR/repo/slug.go" slug.go || { echo "slug.go was changed"; exit 1; }
go test ./... || { echo "the tests fail on the real code"; exit 1; }
mutate() {
  local name=$1 from=$2 to=$3 dir
  dir=$(mktemp -d)
  cp -r . "$dir"
  grep -qF "$from" "$dir/slug.go"
  python3 -c 'import sys; p, f, t = sys.argv[1:]; s = open(p).read(); open(p, "w").write(s.replace(f, t, 1))' "$dir/slug.go" "$from" "$to"
  if (cd "$dir" && go test ./... >/dev/null 2>&1); then echo "the tests miss a bug: $name"; exit 1; fi
  rm -rf "$dir"
  echo "caught: $name"
}
mutate "no lower-casing" 'strings.ToLower(s)' 's'
mutate "repeated dashes" 'if !dash {' 'if true {'
mutate "dashes at the ends" 'strings.Trim(b.String(), "-")' 'b.String()'
