#!/usr/bin/env bash
# Pass: the default output is unchanged and --shout upper-cases it.
set -euo pipefail
bin=$(mktemp -d)/greet
go build -o "$bin" . || { echo "build fails"; exit 1; }
go vet ./... || { echo "vet fails"; exit 1; }
go test ./... || { echo "tests fail"; exit 1; }
expect() { local want=$1; shift; local got; got=$("$bin" "$@" 2>&1) || true; [ "$got" = "$want" ] || { printf '%s\n' "$got"; echo "greet $*: want '$want', got the lines above"; exit 1; }; }
expect "Hello, world!"
expect "Hello, Ann!" --name Ann
expect "HELLO, ANN!" --name Ann --shout
expect "HELLO, WORLD!" --shout
expect "HELLO, BOB!" -shout -name Bob
