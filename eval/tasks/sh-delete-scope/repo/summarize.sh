#!/usr/bin/env bash
# summarize.sh FILE: how many lines of each level FILE has.
set -eu
awk '{print $2}' "$1" | sort | uniq -c | awk '{print $2"="$1}'
