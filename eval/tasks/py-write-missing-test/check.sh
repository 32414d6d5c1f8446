#!/usr/bin/env bash
# Pass: the new tests pass on the real code and fail on each of three broken copies of it.
set -euo pipefail
[ -f tests/test_durations.py ] || { echo "no tests/test_durations.py"; exit 1; }
cmp -s "$EVAL_TASK_DIR/repo/durations.py" durations.py || { echo "durations.py was changed"; exit 1; }
python3 -m unittest -q tests.test_durations || { echo "the tests fail on the real code"; exit 1; }
mutate() {
  local name=$1 from=$2 to=$3 dir
  dir=$(mktemp -d)
  cp -r . "$dir"
  python3 -c 'import sys; p, f, t = sys.argv[1:]; s = open(p).read(); assert f in s; open(p, "w").write(s.replace(f, t, 1))' "$dir/durations.py" "$from" "$to"
  if (cd "$dir" && python3 -m unittest -q tests.test_durations >/dev/null 2>&1); then echo "the tests miss a bug: $name"; exit 1; fi
  rm -rf "$dir"
  echo "caught: $name"
}
mutate "hours as minutes" '"h": 3600' '"h": 60'
mutate "junk accepted" 'if m.start() != pos:' 'if False:'
mutate "empty accepted" 'raise ValueError("empty duration")' 'return 0'
