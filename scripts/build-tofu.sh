#!/usr/bin/env bash
# Builds the OpenTofu CLI (`tofu`) pinned in tools/tofu/go.mod and prints its
# absolute path on stdout (progress goes to stderr). The acceptance tests and
# the examples run against it a second time, after Terraform.
#
#   scripts/build-tofu.sh            # builds once, then reuses the binary
#
# The binary lives in a cache folder outside the clone, shared by every
# checkout on the machine and kept across fresh clones:
#
#   ${CELYAML_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/celyaml}/tofu-VERSION/tofu
#
# It is built from source with the Go toolchain through the Go module proxy
# (nothing else is downloaded): a cold build takes several minutes on two
# cores, a warm one (binary present) returns at once. The binary is written
# to a temporary name and renamed, so an interrupted build never leaves a
# half-written `tofu` behind to be reused.
#
# OpenTofu is built with `go build` inside tools/tofu, not
# `go install github.com/opentofu/opentofu/cmd/tofu@VERSION`, because
# OpenTofu's go.mod replaces hashicorp/hcl with its fork and `go install
# pkg@version` refuses modules with replace directives; tools/tofu/go.mod
# repeats that replace.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
mod="$root/tools/tofu"
version="$(awk '$1 == "require" && $2 == "github.com/opentofu/opentofu" { print $3 }' "$mod/go.mod")"
if [[ -z "$version" ]]; then
  echo "error: no 'require github.com/opentofu/opentofu VERSION' line in $mod/go.mod" >&2
  exit 1
fi
version="${version#v}"

cache="${CELYAML_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/celyaml}"
dir="$cache/tofu-$version"
bin="$dir/tofu"

# reports_version BIN: true when BIN runs and says it is OpenTofu $version
# (`tofu version` prints "OpenTofu v1.12.6", after any warning about the
# CLI configuration).
reports_version() {
  local out
  out="$(CHECKPOINT_DISABLE=1 "$1" version 2>/dev/null)" || return 1
  grep -qx "OpenTofu v$version" <<<"$out"
}

if [[ -x "$bin" ]] && reports_version "$bin"; then
  echo "build-tofu: reusing OpenTofu $version at $bin" >&2
  echo "$bin"
  exit 0
fi

start=$SECONDS
echo "build-tofu: building OpenTofu $version from source into $dir" >&2
echo "build-tofu: a cold build downloads its Go modules and compiles for several minutes; later runs reuse the binary" >&2
mkdir -p "$dir"
tmp="$(mktemp "$dir/tofu.XXXXXX")"
trap 'rm -f "$tmp"' EXIT

echo "build-tofu: downloading the modules tofu needs (through the Go module proxy)" >&2
(cd "$mod" && go list -deps github.com/opentofu/opentofu/cmd/tofu >/dev/null)
echo "build-tofu: compiling about 1800 packages (downloads took $((SECONDS - start))s)" >&2
# As OpenTofu's release build does (its .goreleaser.yaml): -trimpath, no
# symbol tables, and version.dev=no, so that the binary calls itself
# "OpenTofu v1.12.6" and not "v1.12.6-dev". OpenTofu reads the version
# number from version/VERSION inside its module.
(cd "$mod" && go build -trimpath -ldflags "-s -w -X github.com/opentofu/opentofu/version.dev=no" \
  -o "$tmp" github.com/opentofu/opentofu/cmd/tofu)
chmod 0755 "$tmp"
if ! reports_version "$tmp"; then
  echo "error: the built binary does not say it is OpenTofu v$version; tofu version says:" >&2
  "$tmp" version >&2 || true
  exit 1
fi
mv -f "$tmp" "$bin"
trap - EXIT
echo "build-tofu: built OpenTofu $version in $((SECONDS - start))s: $bin" >&2
echo "$bin"
