#!/usr/bin/env bash
# CI for the Neovim plugin: runs the busted suite in headless Neovim against
# the real companion binary on scripted models.
#
#   COMPANION_BIN=/abs/path/companion editors/nvim/ci.sh
#
# Without COMPANION_BIN the binary is built from this checkout first (needs
# Go). Needs the Debian packages neovim, lua-busted and lua-luassert.
# Exit status: 0 when every test passes, non-zero otherwise.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"

command -v nvim >/dev/null || { echo "ci.sh: nvim not found (apt-get install neovim)" >&2; exit 1; }
[ -f /usr/share/lua/5.1/busted/runner.lua ] || { echo "ci.sh: busted not found (apt-get install lua-busted lua-luassert)" >&2; exit 1; }

if [ -z "${COMPANION_BIN:-}" ]; then
  build="$(mktemp -d)"
  trap 'rm -rf "$build"' EXIT
  echo "ci.sh: building companion into $build" >&2
  (cd "$repo" && go build -o "$build/companion" ./cmd/companion)
  COMPANION_BIN="$build/companion"
fi
case "$COMPANION_BIN" in
  /*) ;;
  *) COMPANION_BIN="$(pwd)/$COMPANION_BIN" ;;
esac
[ -x "$COMPANION_BIN" ] || { echo "ci.sh: COMPANION_BIN is not an executable: $COMPANION_BIN" >&2; exit 1; }
export COMPANION_BIN

cd "$here"
nvim --version | head -1
# A hung test must not hang CI: every wait inside is bounded, this bounds
# the whole run.
timeout 600 nvim --headless --noplugin -u tests/minimal_init.lua -c 'luafile tests/run.lua'
