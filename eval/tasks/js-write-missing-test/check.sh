#!/usr/bin/env bash
# Pass: test/query.test.js passes on the real code and fails on each of three broken copies of it.
set -euo pipefail
[ -f test/query.test.js ] || { echo "no test/query.test.js"; exit 1; }
cmp -s "$EVAL_TASK_DIR/repo/src/query.js" src/query.js || { echo "src/query.js was changed"; exit 1; }
node --test test/ || { echo "the tests fail on the real code"; exit 1; }
mutate() {
  local name=$1 from=$2 to=$3 dir
  dir=$(mktemp -d)
  cp -r . "$dir"
  python3 -c 'import sys; p, f, t = sys.argv[1:]; s = open(p).read(); assert f in s; open(p, "w").write(s.replace(f, t, 1))' "$dir/src/query.js" "$from" "$to"
  if (cd "$dir" && node --test test/ >/dev/null 2>&1); then echo "the tests miss a bug: $name"; exit 1; fi
  rm -rf "$dir"
  echo "caught: $name"
}
mutate "no decoding" "return decodeURIComponent(s.replace(/\\+/g, ' '));" 'return s;'
mutate "repeated keys overwrite" 'if (Object.hasOwn(out, key)) {' 'if (false) {'
mutate "key without value" "const value = eq === -1 ? '' :" 'const value = eq === -1 ? undefined :'
