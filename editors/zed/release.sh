#!/usr/bin/env bash
# Builds companion's release archives in the layout editors/zed/extension.toml
# expects, and writes the manifest for that release with real URLs and sha256s.
#
#   editors/zed/release.sh OWNER VERSION [DIST]
#       cross-compiles every target, archives each as
#       DIST/companion-<os>-<arch>.tar.gz (.zip for Windows) with the binary
#       at the archive's top level, then writes DIST/extension.toml.
#   editors/zed/release.sh --manifest-only OWNER VERSION DIST
#       only writes DIST/extension.toml from archives already in DIST.
#
# RELEASE_TARGETS="linux-x86_64 ..." builds only those targets, to try the
# layout locally; no manifest is written then, as it lists every target.
#
# Upload the archives to the GitHub release vVERSION of OWNER/companion, then
# publish DIST/extension.toml (see editors/zed/README.md).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"

# Zed's target names (os-arch) and the matching Go GOOS/GOARCH.
targets=(
  "linux-x86_64 linux amd64"
  "linux-aarch64 linux arm64"
  "darwin-x86_64 darwin amd64"
  "darwin-aarch64 darwin arm64"
  "windows-x86_64 windows amd64"
)

die() { echo "release.sh: $*" >&2; exit 2; }

# Removed when the script ends, however it ends: the build directory and a
# half-written manifest.
work=""
tmp=""
trap 'rm -rf "$work" "$tmp"' EXIT

# archive_name prints the archive file name for a Zed target.
archive_name() {
  case "$1" in
    windows-*) echo "companion-$1.zip" ;;
    *) echo "companion-$1.tar.gz" ;;
  esac
}

# package builds one target into the work directory and archives it with
# the binary at the archive's top level.
package() {
  local target=$1 goos=$2 goarch=$3 dist=$4 version=$5
  local dir="$work/$target" bin=companion out
  [ "$goos" = windows ] && bin=companion.exe
  mkdir -p "$dir"
  # The same build as `make release`: one set of flags for every shipped binary.
  GOOS="$goos" GOARCH="$goarch" make -C "$repo" --no-print-directory release \
    BIN="$dir/$bin" VERSION="$version" >&2
  out="$dist/$(archive_name "$target")"
  rm -f "$out"
  case "$out" in
    *.zip) (cd "$dir" && zip -q "$out" "$bin") ;;
    *) tar -C "$dir" -czf "$out" "$bin" ;;
  esac
  echo "built $out" >&2
}

# manifest writes DIST/extension.toml: the template without its comments,
# with OWNER and the placeholder version filled in and a sha256 line after
# every archive.
manifest() {
  local owner=$1 version=$2 dist=$3 line name sum
  tmp="$dist/extension.toml.tmp"
  {
    echo "# companion $version for Zed, written by editors/zed/release.sh."
    while IFS= read -r line; do
      [[ "$line" == \#* ]] && continue
      line="${line//OWNER/$owner}"
      line="${line//0.0.0/$version}"
      printf '%s\n' "$line"
      if [[ "$line" =~ ^archive\ =\ \".*/([^/\"]+)\"$ ]]; then
        name="${BASH_REMATCH[1]}"
        [ -f "$dist/$name" ] || die "missing archive $dist/$name"
        sum="$(sha256sum "$dist/$name" | cut -d' ' -f1)"
        printf 'sha256 = "%s"\n' "$sum"
      fi
    done <"$here/extension.toml"
  } >"$tmp"
  mv "$tmp" "$dist/extension.toml"
  echo "wrote $dist/extension.toml" >&2
}

main() {
  local only=false
  if [ "${1:-}" = --manifest-only ]; then
    only=true
    shift
  fi
  [ $# -ge 2 ] || die "usage: release.sh [--manifest-only] OWNER VERSION [DIST]"
  local owner=$1 version=${2#v} dist=${3:-$repo/dist/zed}
  [[ "$owner" =~ ^[A-Za-z0-9-]+$ ]] || die "OWNER must be a GitHub account name, got '$owner'"
  [[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.-]+)?$ ]] || die "VERSION must be semver, got '$version'"
  mkdir -p "$dist"
  dist="$(cd "$dist" && pwd)"
  if ! $only; then
    command -v go >/dev/null || die "go is needed to build the archives"
    command -v make >/dev/null || die "make is needed to build the archives"
    command -v zip >/dev/null || die "zip is needed for the Windows archive"
    work="$(mktemp -d)"
    local t
    for t in "${targets[@]}"; do
      if [ -n "${RELEASE_TARGETS:-}" ] && [[ " $RELEASE_TARGETS " != *" ${t%% *} "* ]]; then
        continue
      fi
      # shellcheck disable=SC2086 # the target line splits into its three fields
      package $t "$dist" "$version"
    done
  fi
  if [ -n "${RELEASE_TARGETS:-}" ] && ! $only; then
    echo "RELEASE_TARGETS is set: no manifest written" >&2
    return
  fi
  manifest "$owner" "$version" "$dist"
}

main "$@"
