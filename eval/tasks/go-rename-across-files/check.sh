#!/usr/bin/env bash
# Pass: no ParseCfg is left anywhere, ParseConfig is defined and used, and it all builds and passes.
set -euo pipefail
if grep -rn --exclude-dir=.git 'ParseCfg' .; then echo "ParseCfg is still there"; exit 1; fi
grep -q '^func ParseConfig(text string) (Config, error)' config/config.go || { echo "no func ParseConfig in config/config.go"; exit 1; }
grep -q 'config.ParseConfig' cmd/app/main.go || { echo "cmd/app does not call ParseConfig"; exit 1; }
grep -q 'ParseConfig' README.md || { echo "README.md does not say ParseConfig"; exit 1; }
grep -q 'func TestParseConfig\|ParseConfig(' config/config_test.go || { echo "the test does not use ParseConfig"; exit 1; }
go build ./... && go vet ./... && go test ./... || { echo "build, vet or tests fail"; exit 1; }
