#!/usr/bin/env bash
# Pass: formatPrice is a named export with a return type in src/utils/format-price.ts, re-exported
# from the index, no default export anywhere, and it computes the right strings (the check strips
# the type annotations of that one small file and runs it with node).
set -euo pipefail
f=src/utils/format-price.ts
[ -f "$f" ] || { ls -R src; echo "no $f (files listed above)"; exit 1; }
grep -Eq 'export (function formatPrice\(|const formatPrice)' "$f" || { echo "formatPrice is not a named export of $f"; exit 1; }
grep -Eq 'formatPrice\([^)]*: *number[^)]*\): *string|formatPrice *= *\([^)]*: *number[^)]*\): *string' "$f" || { echo "formatPrice has no explicit (cents: number): string signature"; exit 1; }
if grep -rn 'export default' src; then echo "a default export"; exit 1; fi
grep -q "export \* from './format-price.js';" src/utils/index.ts || { echo "src/utils/index.ts does not re-export it"; exit 1; }
js=$(mktemp --suffix=.mjs)
sed -E 's/\(([a-zA-Z_]+): *number\)/(\1)/; s/\): *string/)/; s/: *(number|string)( *[=;,)])/\2/g' "$f" > "$js"
node --input-type=module -e "
import { formatPrice } from '$js';
const cases = [[1234, '\$12.34'], [5, '\$0.05'], [100, '\$1.00'], [0, '\$0.00']];
for (const [c, want] of cases) {
  const got = formatPrice(c);
  if (got !== want) { console.error('formatPrice(' + c + ') = ' + got + ', want ' + want); process.exit(1); }
}" || { echo "formatPrice computes the wrong strings (or the check could not strip its types)"; exit 1; }
