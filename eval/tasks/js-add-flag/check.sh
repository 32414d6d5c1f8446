#!/usr/bin/env bash
# Pass: the text output is unchanged; --json prints the same todos as JSON, with and without --all.
set -euo pipefail
[ "$(node bin/todo.js)" = "$(printf '[ ] write the report\n[ ] call the bank')" ] || { node bin/todo.js 2>&1 || true; echo "the text output changed to the lines above"; exit 1; }
[ "$(node bin/todo.js --all | wc -l)" = 3 ] || { echo "--all changed"; exit 1; }
node bin/todo.js --json > /tmp/eval-todo-$$.json || { echo "--json fails"; exit 1; }
node - /tmp/eval-todo-$$.json <<'JS' || { echo "--json does not print the open todos as a JSON array of {title, done}"; exit 1; }
const fs = require('node:fs');
const assert = require('node:assert/strict');
const got = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
assert.deepEqual(got.map((t) => [t.title, t.done]), [['write the report', false], ['call the bank', false]]);
JS
out=$(node bin/todo.js --json --all) && node -e 'const a = JSON.parse(process.argv[1]); if (a.length !== 3) process.exit(1)' "$out" || { echo "--json --all does not list all three"; exit 1; }
rm -f /tmp/eval-todo-$$.json
