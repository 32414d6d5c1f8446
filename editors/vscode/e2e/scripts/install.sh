#!/usr/bin/env bash
# Installs what the VS Code end-to-end tests need into a cache directory
# (never into the repository): Node 24 (code-server 4.139.1 refuses older
# Node) and code-server itself. Idempotent: each part is skipped when its
# "done" marker exists, so a warm run costs nothing.
#
#   COMPANION_E2E_CACHE  cache root (default ~/.cache/companion-e2e)
#
# Assumes the Debian packages libkrb5-dev pkg-config libsecret-1-dev are
# installed (code-server's native modules build against them).
# Prints where they are (NODE24_HOME, CODE_SERVER).
set -euo pipefail

# Both versions are pinned (lib/env.mjs names the same ones) so a cache
# directory always holds exactly one known build.
CODE_SERVER_VERSION=4.139.1
NODE_VERSION=24.21.0
CACHE="${COMPANION_E2E_CACHE:-$HOME/.cache/companion-e2e}"
NODE_DIR="$CACHE/node-$NODE_VERSION"
# code-server's native modules are built for that Node: the folder names both.
CS_DIR="$CACHE/code-server-$CODE_SERVER_VERSION-node-$NODE_VERSION"

log() { printf '[install] %s\n' "$*" >&2; }

# install_node puts node@$NODE_VERSION (the npm package that pulls the
# platform's node-<os>-<arch> package) in $NODE_DIR. The system npm does the
# download; only the binary and headers it brings are used.
install_node() {
  if [[ -f "$NODE_DIR/.done" ]]; then return; fi
  log "Node $NODE_VERSION -> $NODE_DIR"
  rm -rf "$NODE_DIR" && mkdir -p "$NODE_DIR"
  (cd "$NODE_DIR" && npm init -y >/dev/null &&
    npm install --no-audit --no-fund --loglevel=error "node@$NODE_VERSION" >&2)
  "$(node_home)/bin/node" --version | grep -qx "v$NODE_VERSION" || { log "node@$NODE_VERSION did not install"; exit 1; }
  touch "$NODE_DIR/.done"
}

# node_home is the directory with bin/node and include/node (the headers
# node-gyp needs to build code-server's native modules).
node_home() {
  echo "$NODE_DIR/node_modules/node/node_modules/node-$(node -p 'process.platform + "-" + process.arch')"
}

# install_code_server runs npm of Node 24 with Node 24 first on PATH and
# npm_config_nodedir pointing at its headers: the machine's npmrc points
# node-gyp at the system Node's headers, which would build for the wrong ABI.
install_code_server() {
  if [[ -f "$CS_DIR/.done" ]]; then return; fi
  log "code-server $CODE_SERVER_VERSION -> $CS_DIR (about 2 minutes)"
  local home; home="$(node_home)"
  rm -rf "$CS_DIR" && mkdir -p "$CS_DIR"
  # JOBS: node-gyp compiles each native module with make -j<cores>.
  # CFLAGS/CXXFLAGS -O0 (they come after the modules' own -O3): the tests
  # need the modules (sqlite, spdlog…) to work, not to be fast, and
  # unoptimised they build with a third less CPU (156 -> 108 CPU-seconds
  # here for the whole install); the suite passes the same on either.
  # npm_config_globalconfig: Node 24's npm has a global npmrc of its own,
  # so it is pointed at the machine's (its registry, proxy and CA file:
  # behind a proxy that signs with its own certificate, npm refuses the
  # registry without that CA file); nodedir above still wins, as the
  # environment beats any npmrc.
  local globalconfig; globalconfig="$(npm config get globalconfig)"
  (cd "$CS_DIR" && export PATH="$home/bin:$PATH" npm_config_nodedir="$home" npm_config_globalconfig="$globalconfig" JOBS=max CFLAGS=-O0 CXXFLAGS=-O0 &&
    npm init -y >/dev/null &&
    npm install --no-audit --no-fund --loglevel=error "code-server@$CODE_SERVER_VERSION" >&2)
  PATH="$home/bin:$PATH" "$CS_DIR/node_modules/.bin/code-server" --version >&2
  touch "$CS_DIR/.done"
}

# One install at a time per cache: .ci/run starts one in the background
# early, and ci.sh's own call then waits for it instead of racing it.
mkdir -p "$CACHE"
exec 9>"$CACHE/.install.lock"
flock 9
install_node
install_code_server
echo "NODE24_HOME=$(node_home)"
echo "CODE_SERVER=$CS_DIR/node_modules/.bin/code-server"
