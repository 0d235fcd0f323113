#!/usr/bin/env bash
# Builds the real `helm` (Helm v4) pinned in tools/helm/go.mod and prints its
# absolute path on stdout (progress goes to stderr). It is the oracle the
# chart tests compare `$chart` with (`helm template` of the same chart and
# values, internal/helmoracle) and the Helm that runs `celyaml post-render`
# as a post-renderer plugin (internal/cli's TestPostRenderUnderRealHelm).
#
#   scripts/build-helm.sh          # builds once, then reuses the binary
#
# The binary lives in a cache folder outside the clone, shared by every
# checkout on the machine and kept across fresh clones:
#
#   ${CELYAML_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/celyaml}/helm-VERSION/helm
#
# It is built from source with the Go toolchain through the Go module proxy
# (nothing else is downloaded), as Helm's Makefile builds a release: CGO off,
# -trimpath, -s -w, the version stamped into helm.sh/helm/v4/internal/version
# so that `helm version --template '{{.Version}}'` says vVERSION. A cold build
# takes a few minutes on two cores; a warm one (binary present and saying it
# is that version) returns at once. The binary is written to a temporary name
# and renamed, so an interrupted build never leaves a half-written binary
# behind to be reused.
#
# Helm's go.mod has no replace directives at this version, so
# tools/helm/go.mod has none either.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
mod="$root/tools/helm"
version="$(awk '$1 == "require" && $2 == "helm.sh/helm/v4" { print $3 }' "$mod/go.mod")"
if [[ -z "$version" ]]; then
  echo "error: no one-line 'require helm.sh/helm/v4 VERSION' in $mod/go.mod" >&2
  exit 1
fi

cache="${CELYAML_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/celyaml}"
dir="$cache/helm-${version#v}"
bin="$dir/helm"
pkg=helm.sh/helm/v4/cmd/helm
versionpkg=helm.sh/helm/v4/internal/version

# reports_version BIN: true when BIN runs and says it is Helm $version.
reports_version() {
  local out
  out="$(HELM_CONFIG_HOME=/nonexistent HELM_CACHE_HOME=/nonexistent HELM_DATA_HOME=/nonexistent \
    "$1" version --template '{{.Version}}' 2>/dev/null)" || return 1
  [[ "$out" == "$version" ]]
}

if [[ -x "$bin" ]] && reports_version "$bin"; then
  echo "build-helm: reusing Helm $version at $bin" >&2
  echo "$bin"
  exit 0
fi

start=$SECONDS
echo "build-helm: building Helm $version from source into $dir" >&2
echo "build-helm: a cold build downloads its Go modules and compiles for minutes; later runs reuse the binary" >&2
mkdir -p "$dir"
tmp="$(mktemp "$dir/helm.XXXXXX")"
trap 'rm -f "$tmp"' EXIT

echo "build-helm: downloading the modules helm needs (through the Go module proxy)" >&2
(cd "$mod" && go list -deps "$pkg" >/dev/null)
echo "build-helm: compiling (downloads took $((SECONDS - start))s)" >&2
(cd "$mod" && CGO_ENABLED=0 go build -trimpath \
  -ldflags "-s -w -X $versionpkg.version=$version -X $versionpkg.metadata= -X $versionpkg.gitTreeState=clean" \
  -o "$tmp" "$pkg")
chmod 0755 "$tmp"
if ! reports_version "$tmp"; then
  echo "error: the built binary does not say it is Helm $version; helm version says:" >&2
  "$tmp" version >&2 || true
  exit 1
fi
mv -f "$tmp" "$bin"
trap - EXIT
echo "build-helm: built Helm $version in $((SECONDS - start))s: $bin" >&2
echo "$bin"
