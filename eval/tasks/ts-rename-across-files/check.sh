#!/usr/bin/env bash
# Pass: no UserRec type is left, UserRecord is declared and used in every file, and the look-alike
# constant UserRecCount is untouched. (No TypeScript compiler at check time: the check reads the text.)
set -euo pipefail
if grep -rnw --exclude-dir=.git 'UserRec' src; then echo "UserRec is still there"; exit 1; fi
grep -q '^export interface UserRecord {' src/types.ts || { echo "no UserRecord interface in src/types.ts"; exit 1; }
for f in src/store.ts src/format.ts; do
  grep -q "import type { UserRecord } from './types.js';" "$f" || { echo "$f does not import UserRecord"; exit 1; }
done
[ "$(grep -rho 'UserRecord' src | wc -l)" -ge 9 ] || { echo "UserRecord is used fewer times than UserRec was"; exit 1; }
[ "$(grep -rho 'UserRecCount' src | wc -l)" = 5 ] || { echo "UserRecCount was changed"; exit 1; }
git diff --quiet -- package.json tsconfig.json || { echo "package.json or tsconfig.json changed"; exit 1; }
