#!/usr/bin/env bash
# Builds the hashicorp/kubernetes Terraform provider pinned in
# tools/kubernetes-provider/go.mod and prints the absolute path of the
# folder that holds its binary on stdout (progress goes to stderr). Its
# kubernetes_manifest resource is the oracle internal/kubernetesmanifest runs
# the manifests of provider::celyaml::manifests through, against a real
# kube-apiserver, under Terraform and OpenTofu.
#
#   scripts/build-kubernetes-provider.sh   # builds once, then reuses the binary
#
# The binary lives in a cache folder outside the clone, shared by every
# checkout on the machine and kept across fresh clones:
#
#   ${CELYAML_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/celyaml}/kubernetes-provider-VERSION/terraform-provider-kubernetes
#
# That folder is what a CLI configuration's dev_overrides names for
# "hashicorp/kubernetes" (Terraform reads it as
# registry.terraform.io/hashicorp/kubernetes, OpenTofu as
# registry.opentofu.org/hashicorp/kubernetes), so no registry is asked.
#
# It is built from source with the Go toolchain through the Go module proxy
# (nothing else is downloaded): a cold build takes minutes on two cores, a
# warm one (binary present, built from the same go.mod and go.sum) returns
# at once. The binary is written to a temporary name and renamed, so an
# interrupted build never leaves a half-written binary behind to be reused.
#
# The provider's go.mod has no replace directives at this version, so
# tools/kubernetes-provider/go.mod has none either.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
mod="$root/tools/kubernetes-provider"
version="$(awk '$1 == "require" && $2 == "github.com/hashicorp/terraform-provider-kubernetes" { print $3 }' "$mod/go.mod")"
if [[ -z "$version" ]]; then
  echo "error: no 'require github.com/hashicorp/terraform-provider-kubernetes VERSION' line in $mod/go.mod" >&2
  exit 1
fi

cache="${CELYAML_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/celyaml}"
dir="$cache/kubernetes-provider-$version"
bin="$dir/terraform-provider-kubernetes"
stamp="$(cat "$mod/go.mod" "$mod/go.sum" | sha256sum | cut -d' ' -f1)"

if [[ -x "$bin" && "$(cat "$dir/stamp" 2>/dev/null)" == "$stamp" ]]; then
  echo "build-kubernetes-provider: reusing hashicorp/kubernetes $version at $bin" >&2
  echo "$dir"
  exit 0
fi

start=$SECONDS
echo "build-kubernetes-provider: building hashicorp/kubernetes $version from source into $dir" >&2
echo "build-kubernetes-provider: a cold build downloads its Go modules and compiles for minutes; later runs reuse the binary" >&2
mkdir -p "$dir"
tmp="$(mktemp "$dir/terraform-provider-kubernetes.XXXXXX")"
trap 'rm -f "$tmp"' EXIT

echo "build-kubernetes-provider: downloading the modules it needs (through the Go module proxy)" >&2
(cd "$mod" && go list -deps github.com/hashicorp/terraform-provider-kubernetes >/dev/null)
echo "build-kubernetes-provider: compiling (downloads took $((SECONDS - start))s)" >&2
# As the provider's release build does (.github/workflows/build.yml):
# -trimpath, no symbol tables, CGO off.
(cd "$mod" && CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$tmp" github.com/hashicorp/terraform-provider-kubernetes)
chmod 0755 "$tmp"
mv -f "$tmp" "$bin"
echo "$stamp" >"$dir/stamp"
trap - EXIT
echo "build-kubernetes-provider: built hashicorp/kubernetes $version in $((SECONDS - start))s: $bin" >&2
echo "$dir"
