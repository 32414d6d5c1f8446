#!/usr/bin/env bash
# End-to-end tests of the companion VS Code extension inside a real VS Code
# (code-server 4.139.1) driven by Playwright with Debian's Chromium, plus the
# extension's own mocha suite run inside the real extension host.
#
#   editors/vscode/e2e/ci.sh          install (cached), build, run everything
#
# Needs the Debian packages libkrb5-dev pkg-config libsecret-1-dev
# chromium-headless-shell (or chromium),
# Node 20 + npm, and Go (to build companion when COMPANION_BIN is unset).
# Everything else (Node 24, code-server) is installed into
# $COMPANION_E2E_CACHE (default ~/.cache/companion-e2e), once.
#
# Environment:
#   COMPANION_BIN          companion binary to test (default: built from this checkout)
#   COMPANION_E2E_CACHE    cache of Node 24 and code-server
#   COMPANION_E2E_KEEP=1   keep code-server's temp dirs (logs) after the run
#   COMPANION_E2E_ARTIFACTS  screenshots/logs of failed flows (default e2e/artifacts)
# Exit status 0 when every test passed, else 1. Prints the time of each phase.
set -euo pipefail

E2E="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
EXT="$(dirname "$E2E")"
REPO="$(cd "$EXT/../.." && pwd)"
export COMPANION_E2E_CACHE="${COMPANION_E2E_CACHE:-$HOME/.cache/companion-e2e}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/companion-e2e-ci-XXXXXX")"
export COMPANION_E2E_PID_DIR="$WORK/pids"

# cleanup ends an install still running (the run failed early) and the
# processes of any code-server a test process could not stop itself (it was
# killed outright): each file in $COMPANION_E2E_PID_DIR is named by the
# server's session id and holds the environment entry its processes carry.
cleanup() {
  local f
  [[ -n "${INSTALL_PID:-}" ]] && { pkill -KILL -s "$INSTALL_PID" 2>/dev/null || true; }
  for f in "$COMPANION_E2E_PID_DIR"/*; do
    [[ -e "$f" ]] || continue
    pkill -KILL -s "$(basename "$f")" 2>/dev/null || true
    kill_tagged "$(cat "$f")"
  done
  rm -rf "$WORK"
}

# kill_tagged SIGKILLs the processes whose environment holds the entry $1.
kill_tagged() {
  local env pid
  for env in /proc/[0-9]*/environ; do
    pid="${env#/proc/}" && pid="${pid%/environ}"
    if { tr '\0' '\n' <"$env"; } 2>/dev/null | grep -xF -- "$1" >/dev/null; then
      kill -KILL "$pid" 2>/dev/null || true
    fi
  done
}
trap cleanup EXIT

START=$SECONDS
TIMINGS=()

# phase NAME CMD...: runs CMD, records how long it took.
phase() {
  local name="$1" t0=$SECONDS rc=0
  shift
  echo "== $name" >&2
  "$@" || rc=$?
  TIMINGS+=("$(printf '%-22s %4ds%s' "$name" $((SECONDS - t0)) "$([[ $rc == 0 ]] || echo "  (failed: $rc)")")")
  return $rc
}

print_timings() {
  echo "== timings" >&2
  printf '  %s\n' "${TIMINGS[@]}" "$(printf '%-22s %4ds' total $((SECONDS - START)))" >&2
}

companion_bin() {
  if [[ -n "${COMPANION_BIN:-}" ]]; then return; fi
  (cd "$REPO" && go build -o "$WORK/companion" ./cmd/companion)
  export COMPANION_BIN="$WORK/companion"
}

# shellcheck source=../scripts/lib.sh
source "$EXT/scripts/lib.sh"

# The install (mostly compiling code-server's native modules) runs in the
# background, in a session of its own so cleanup can end it, while the
# extension builds; its output goes to install.log.
start_install() {
  setsid bash -c 't0=$SECONDS; "$0" >/dev/null; rc=$?; echo $((SECONDS - t0)) >"$1"; exit $rc' \
    "$E2E/scripts/install.sh" "$WORK/install.seconds" >"$WORK/install.log" 2>&1 &
  INSTALL_PID=$!
}

wait_install() {
  if ! wait "$INSTALL_PID"; then
    cat "$WORK/install.log" >&2
    return 1
  fi
  INSTALL_PID=
  TIMINGS+=("$(printf '%-22s %4ds  (in the background)' "install (cached)" "$(cat "$WORK/install.seconds")")")
  npm_ci_once "$E2E"
}

# build_extension builds the webview bundle (media/), the extension and its
# mocha suite (out/), and packages the .vsix the flows install; each step is
# skipped when its output is newer than its inputs (make vscode, run before,
# built them: editors/vscode/ci.sh).
build_extension() {
  npm_ci_once "$EXT/webview"
  if (cd "$EXT/webview" && stale ../media/webview.js src build.mjs package-lock.json); then
    (cd "$EXT/webview" && npm run --silent build)
  fi
  npm_ci_once "$EXT"
  if (cd "$EXT" && stale out/extension.js src test esbuild.mjs package.json package-lock.json tsconfig.json); then
    (cd "$EXT" && npm run --silent build)
  fi
  if (cd "$EXT" && stale companion.vsix out media resources package.json README.md bin); then
    (cd "$EXT" && rm -f companion.vsix && npm run --silent package </dev/null >"$WORK/vsce.log" 2>&1) ||
      { cat "$WORK/vsce.log" >&2; return 1; }
  fi
  export COMPANION_E2E_VSIX="$EXT/companion.vsix"
}

run_tests() {
  # node --test runs the files in name order: the harness (1-) tests itself
  # first, since if it is broken the rest cannot be trusted.
  (cd "$E2E" && node --test --test-concurrency=1 test/)
}

status=0
start_install
phase "companion binary" companion_bin &&
  phase "build extension" build_extension &&
  phase "wait for install" wait_install &&
  phase "e2e tests" run_tests || status=1
print_timings
exit $status
