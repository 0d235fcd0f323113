#!/usr/bin/env bash
# Builds GoReleaser, pinned in tools/goreleaser/go.mod, and prints the
# binary's absolute path on stdout (progress goes to stderr); the release
# dry run (scripts/release-snapshot.sh) runs it. The binary lives in the
# cache folder outside the clone, built once per machine from the Go module
# proxy (minutes cold), then reused at once:
#
#   ${CELYAML_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/celyaml}/goreleaser-VERSION/goreleaser
#
# The version is stamped in as GoReleaser's own release build does
# (-X main.version), and checked with `goreleaser --version` before the
# binary is kept.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
mod="$root/tools/goreleaser"
version="$(awk '$1 == "require" && $2 == "github.com/goreleaser/goreleaser/v2" { print $3 }' "$mod/go.mod")"
if [[ -z "$version" ]]; then
  echo "error: no one-line 'require github.com/goreleaser/goreleaser/v2 VERSION' in $mod/go.mod" >&2
  exit 1
fi
version="${version#v}"
cache="${CELYAML_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/celyaml}"
dir="$cache/goreleaser-$version"
bin="$dir/goreleaser"

reports_version() {
  "$1" --version 2>/dev/null | grep -qE "^GitVersion:[[:space:]]+$version\$"
}

if [[ -x "$bin" ]] && reports_version "$bin"; then
  echo "build-goreleaser: reusing GoReleaser $version at $bin" >&2
  echo "$bin"
  exit 0
fi

start=$SECONDS
echo "build-goreleaser: building GoReleaser $version from source into $dir (a few minutes, once per machine)" >&2
mkdir -p "$dir"
tmp="$(mktemp "$dir/goreleaser.XXXXXX")"
trap 'rm -f "$tmp"' EXIT
(cd "$mod" && go build -trimpath -ldflags "-s -w -X main.version=$version -X main.builtBy=celyaml" \
  -o "$tmp" github.com/goreleaser/goreleaser/v2)
chmod 0755 "$tmp"
if ! reports_version "$tmp"; then
  echo "error: the built binary does not say it is GoReleaser $version; goreleaser --version says:" >&2
  "$tmp" --version >&2 || true
  exit 1
fi
mv -f "$tmp" "$bin"
trap - EXIT
echo "build-goreleaser: built GoReleaser $version in $((SECONDS - start))s: $bin" >&2
echo "$bin"
