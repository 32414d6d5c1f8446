#!/usr/bin/env bash
# CI for the chat webview (editors/vscode/webview): install, typecheck,
# build media/webview.{js,css}, unit tests, the UI in headless Chromium, and
# the check that the recorded fixture still matches the real binary.
#
# Needs Node >= 20, Debian's chromium-headless-shell (or chromium, or
# CHROMIUM_PATH; ../scripts/browser.mjs finds it and says what is missing)
# and COMPANION_BIN (absolute path of the companion binary); when
# COMPANION_BIN is unset the binary is built from this checkout with go.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
cd "$here"

if [[ -z "${COMPANION_BIN:-}" ]]; then
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' EXIT
  echo "webview ci: building companion into $tmp"
  (cd "$repo" && go build -o "$tmp/companion" ./cmd/companion)
  export COMPANION_BIN="$tmp/companion"
fi

# shellcheck source=../scripts/lib.sh
source "$here/../scripts/lib.sh"

start=$SECONDS
# Skipped when ../ci.sh (make vscode runs it first) installed and built already.
npm_ci_once .
npm run typecheck
if stale out/pure.mjs src build.mjs package-lock.json || stale ../media/webview.js src build.mjs package-lock.json; then npm run build; fi
npm run test:unit
npm run test:ui
npm run test:fixture
echo "webview ci: ok in $((SECONDS - start)) s"
