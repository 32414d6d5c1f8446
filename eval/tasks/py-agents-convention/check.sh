#!/usr/bin/env bash
# Pass: greet says goodbye when leaving, the text is a constant in app/messages.py (not a literal
# in app/greet.py), the new parameter has a type hint, and the tests pass.
set -euo pipefail
python3 - <<'PY' || exit 1
from app.greet import greet
for args, kw, want in [(("Ann",), {}, "Hello, Ann!"), (("Ann",), {"leaving": True}, "Goodbye, Ann!"),
                       (("Bo", False), {}, "Hello, Bo!"), (("Bo", True), {}, "Goodbye, Bo!")]:
    got = greet(*args, **kw)
    if got != want:
        raise SystemExit(f"greet{args} {kw} = {got!r}, want {want!r}")
PY
grep -q 'Goodbye' app/messages.py || { echo "no Goodbye constant in app/messages.py"; exit 1; }
if grep -n 'Goodbye' app/greet.py; then echo "app/greet.py has the Goodbye text itself"; exit 1; fi
grep -Eq 'leaving: *bool' app/greet.py || { echo "leaving has no type hint"; exit 1; }
python3 -m unittest -q || { echo "tests fail"; exit 1; }
