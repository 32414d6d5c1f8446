#!/usr/bin/env bash
# Pass: the default output is unchanged; -q prints only the counts line.
set -euo pipefail
want=$(printf 'Report for sample.log\n  2024-05-01 10:00:02 ERROR cannot reach db\n  2024-05-01 10:00:03 ERROR retry failed\nerrors=2 warnings=1')
got=$(bash ./report.sh sample.log 2>&1) || true
[ "$got" = "$want" ] || { printf '%s\n' "$got"; echo "the default output changed to the lines above"; exit 1; }
got=$(bash ./report.sh -q sample.log 2>&1) || true
[ "$got" = "errors=2 warnings=1" ] || { printf '%s\n' "$got"; echo "report.sh -q sample.log printed the lines above, want only: errors=2 warnings=1"; exit 1; }
printf 'x ERROR y\n' > /tmp/eval-report-$$.log
got=$(bash ./report.sh -q /tmp/eval-report-$$.log 2>&1) || true
rm -f /tmp/eval-report-$$.log
[ "$got" = "errors=1 warnings=0" ] || { printf '%s\n' "$got"; echo "report.sh -q on another file printed the lines above, want only: errors=1 warnings=0"; exit 1; }
[ -x report.sh ] || { echo "report.sh is no longer executable"; exit 1; }
