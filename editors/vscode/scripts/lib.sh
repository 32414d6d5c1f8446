# Shell helpers the VS Code CI scripts (ci.sh, webview/ci.sh, e2e/ci.sh)
# share, so that `make vscode vscode-e2e` installs and builds each part once.
# Source it; it defines functions only.

# npm_ci_once runs `npm ci` in $1 unless its node_modules already matches
# package-lock.json (npm records the installed tree in
# node_modules/.package-lock.json, written after the lock file was read).
npm_ci_once() {
  local dir="$1"
  if [[ -f "$dir/node_modules/.package-lock.json" &&
    "$dir/node_modules/.package-lock.json" -nt "$dir/package-lock.json" ]]; then
    return
  fi
  (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
}

# stale OUTPUT INPUT... is true when OUTPUT is missing or any file under
# the INPUTs (files or folders; node_modules skipped) is newer than it.
stale() {
  local out="$1"
  shift
  [[ -e "$out" ]] || return 0
  [[ -n "$(find "$@" -name node_modules -prune -o -newer "$out" -type f -print -quit 2>/dev/null)" ]]
}
