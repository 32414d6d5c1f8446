#!/usr/bin/env bash
set -eu
here=$(cd "$(dirname "$0")" && pwd)
got=$("$here/../summarize.sh" "$here/fixtures/sample.log" | tr '\n' ' ')
[ "$got" = "ERROR=1 INFO=2 " ] || { echo "FAIL: $got"; exit 1; }
echo PASS
