#!/usr/bin/env bash
# report.sh LOGFILE: summarise a log's ERROR and WARN lines.
set -eu
file=${1:?usage: report.sh LOGFILE}
errors=$(grep -c ' ERROR ' "$file" || true)
warnings=$(grep -c ' WARN ' "$file" || true)
echo "Report for $file"
grep ' ERROR ' "$file" | sed 's/^/  /' || true
echo "errors=$errors warnings=$warnings"
