#!/usr/bin/env bash
# CI for the VS Code extension host side (editors/vscode), from a clean checkout:
# npm ci, typecheck, build (extension + extension-host suite + the webview
# bundle), unit tests of the ACP glue against the real companion binary, and
# a .vsix. It does not start code-server: e2e/ci.sh does that.
#
#   COMPANION_BIN=/abs/path/to/companion editors/vscode/ci.sh
#
# Without COMPANION_BIN it builds the binary from the repository into a
# temporary folder (needs Go).
set -euo pipefail
cd "$(dirname "$0")"
here=$PWD
# shellcheck source=scripts/lib.sh
source scripts/lib.sh
start=$(date +%s)

step() { printf '\n== %s (%ss)\n' "$1" "$(( $(date +%s) - start ))"; }

if [[ -z "${COMPANION_BIN:-}" ]]; then
  step "building companion"
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  (cd ../.. && go build -o "$tmp/companion" ./cmd/companion)
  export COMPANION_BIN="$tmp/companion"
fi
[[ "$COMPANION_BIN" = /* && -x "$COMPANION_BIN" ]] || { echo "COMPANION_BIN must be an absolute path to an executable: $COMPANION_BIN" >&2; exit 1; }

# Installs and builds are skipped when already done and up to date (make
# vscode runs webview/ci.sh next, and vscode-e2e e2e/ci.sh: each part once).
step "npm ci"
npm_ci_once .

if [[ -f webview/package.json ]]; then
  step "webview bundle"
  npm_ci_once webview
  # One build makes the bundle in media/ and webview/out/pure.mjs (webview/ci.sh's unit tests).
  if stale media/webview.js webview/src webview/build.mjs webview/package-lock.json ||
    stale webview/out/pure.mjs webview/src webview/build.mjs webview/package-lock.json; then
    npm --prefix webview run build
  fi
fi
[[ -f media/webview.js && -f media/webview.css ]] || { echo "media/webview.js and media/webview.css are missing (webview/ builds them)" >&2; exit 1; }

step "typecheck"
npm run typecheck

step "build"
npm run build

step "unit tests (COMPANION_BIN=$COMPANION_BIN)"
npm run test:unit

step "vsce package"
if stale companion.vsix out media resources package.json README.md bin; then
  rm -f companion.vsix
  npm run package
fi
# The listing is read whole first: `unzip -l | grep -q` under pipefail fails
# when grep exits before unzip has written everything.
listing=$(unzip -l companion.vsix)
grep -q 'extension/out/extension.js' <<<"$listing" || { echo "the .vsix lacks out/extension.js" >&2; exit 1; }
grep -q 'extension/out/wiring.js' <<<"$listing" || { echo "the .vsix lacks out/wiring.js" >&2; exit 1; }
grep -q 'extension/media/webview.js' <<<"$listing" || { echo "the .vsix lacks media/webview.js" >&2; exit 1; }
if [[ -f bin/companion ]]; then
  grep -q 'extension/bin/companion' <<<"$listing" || { echo "the .vsix lacks the shipped bin/companion" >&2; exit 1; }
fi

step "done: $here/companion.vsix"
