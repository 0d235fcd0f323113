#!/usr/bin/env bash
# Builds the Terraform or OpenTofu CLI pinned in a module of its own under
# tools/ and prints the binary's absolute path on stdout (progress goes to
# stderr). The acceptance tests and the examples run against these binaries
# besides the `terraform` on PATH:
#
#   scripts/build-cli.sh tools/tofu             # OpenTofu, the newest tested
#   scripts/build-cli.sh tools/tofu-floor       # OpenTofu, the oldest claimed
#   scripts/build-cli.sh tools/terraform-floor  # Terraform, the oldest claimed
#
# The module's go.mod requires github.com/opentofu/opentofu or
# github.com/hashicorp/terraform at the version to build. The binary lives
# in a cache folder outside the clone, shared by every checkout on the
# machine and kept across fresh clones:
#
#   ${CELYAML_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/celyaml}/tofu-VERSION/tofu
#   ${CELYAML_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/celyaml}/terraform-VERSION/terraform
#
# It is built from source with the Go toolchain through the Go module proxy
# (nothing else is downloaded): a cold build takes several minutes on two
# cores, a warm one (binary present and saying it is that version) returns
# at once. The binary is written to a temporary name and renamed, so an
# interrupted build never leaves a half-written binary behind to be reused.
#
# It is built with `go build` inside the tools module, not `go install
# MODULE/cmd@VERSION`, because OpenTofu's go.mod replaces hashicorp/hcl with
# its fork and `go install pkg@version` refuses modules with replace
# directives; the tools module repeats that replace.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
if [[ $# -ne 1 ]]; then
  echo "usage: $0 tools/MODULE" >&2
  exit 2
fi
case "$1" in
  /*) mod="$1" ;;
  *) mod="$root/$1" ;;
esac
if [[ ! -f "$mod/go.mod" ]]; then
  echo "error: $mod/go.mod does not exist" >&2
  exit 1
fi

# required MODULE: the version go.mod's `require MODULE VERSION` line names.
required() {
  awk -v m="$1" '$1 == "require" && $2 == m { print $3 }' "$mod/go.mod"
}
if version="$(required github.com/opentofu/opentofu)" && [[ -n "$version" ]]; then
  name=tofu product=OpenTofu pkg=github.com/opentofu/opentofu/cmd/tofu
  versionpkg=github.com/opentofu/opentofu/version
elif version="$(required github.com/hashicorp/terraform)" && [[ -n "$version" ]]; then
  name=terraform product=Terraform pkg=github.com/hashicorp/terraform
  versionpkg=github.com/hashicorp/terraform/version
else
  echo "error: no one-line 'require github.com/opentofu/opentofu VERSION' or 'require github.com/hashicorp/terraform VERSION' in $mod/go.mod" >&2
  exit 1
fi
version="${version#v}"

cache="${CELYAML_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/celyaml}"
dir="$cache/$name-$version"
bin="$dir/$name"
tag="build-$name-$version"

# reports_version BIN: true when BIN runs and says it is $product $version
# (`tofu version` prints "OpenTofu v1.12.6", `terraform version`
# "Terraform v1.8.5", after any warning about the CLI configuration).
reports_version() {
  local out
  out="$(CHECKPOINT_DISABLE=1 TF_CLI_CONFIG_FILE=/dev/null "$1" version 2>/dev/null)" || return 1
  grep -qx "$product v$version" <<<"$out"
}

if [[ -x "$bin" ]] && reports_version "$bin"; then
  echo "$tag: reusing $product $version at $bin" >&2
  echo "$bin"
  exit 0
fi

start=$SECONDS
echo "$tag: building $product $version from source into $dir" >&2
echo "$tag: a cold build downloads its Go modules and compiles for several minutes; later runs reuse the binary" >&2
mkdir -p "$dir"
tmp="$(mktemp "$dir/$name.XXXXXX")"
trap 'rm -f "$tmp"' EXIT

echo "$tag: downloading the modules $name needs (through the Go module proxy)" >&2
(cd "$mod" && go list -deps "$pkg" >/dev/null)
echo "$tag: compiling about 1800 packages (downloads took $((SECONDS - start))s)" >&2
# As the release builds do (their .goreleaser.yaml / build scripts):
# -trimpath, no symbol tables, and version.dev=no, so that the binary calls
# itself "OpenTofu v1.12.6" and not "v1.12.6-dev". Both read the version
# number from version/VERSION inside their module.
(cd "$mod" && go build -trimpath -ldflags "-s -w -X $versionpkg.dev=no" -o "$tmp" "$pkg")
chmod 0755 "$tmp"
if ! reports_version "$tmp"; then
  echo "error: the built binary does not say it is $product v$version; $name version says:" >&2
  "$tmp" version >&2 || true
  exit 1
fi
mv -f "$tmp" "$bin"
trap - EXIT
echo "$tag: built $product $version in $((SECONDS - start))s: $bin" >&2
echo "$bin"
