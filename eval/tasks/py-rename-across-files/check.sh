#!/usr/bin/env bash
# Pass: no compute_total is left, order_total is defined and exported, and the tests pass.
set -euo pipefail
if grep -rn --exclude-dir=.git --exclude-dir=__pycache__ 'compute_total' .; then echo "compute_total is still there"; exit 1; fi
grep -q '^def order_total(' shop/cart.py || { echo "no def order_total in shop/cart.py"; exit 1; }
python3 -c 'from shop import order_total; assert order_total([{"price": 2, "qty": 3}]) == 6' || { echo "shop.order_total does not work"; exit 1; }
python3 -m unittest -q || { echo "tests fail"; exit 1; }
