#!/usr/bin/env bash
# Runs a command against a Terraform configuration with the provider built
# from this checkout, without `terraform init`, a registry, or any file
# written into the repository.
#
#   scripts/with-dev-provider.sh DIR COMMAND [ARGS...]
#
# It builds the provider into a temporary directory, writes a temporary CLI
# configuration whose dev_overrides point "celyaml/celyaml" at that build,
# copies DIR there, and runs COMMAND in the copy with:
#
#   TF_CLI_CONFIG_FILE  the temporary CLI configuration
#   TF_DATA_DIR         a temporary .terraform directory
#   CHECKPOINT_DISABLE  1, so Terraform never calls home
#
# State files land in the copy, so plain `terraform apply` and
# `terraform output` work and the repository stays clean.
# With dev_overrides Terraform needs no `terraform init` for the overridden
# provider or for the built-in terraform_data; local modules are installed
# with `terraform get`, which touches no provider or network.
# The temporary directory is removed on exit unless KEEP_TMP=1.
# CELYAML_PROVIDER_DIR, when set, is a directory that already holds a built
# terraform-provider-celyaml: it is used as it is, with no build.
# When COMMAND is terraform and stdout is not a terminal (a pipe, a file, a
# CI log), or CI=true, -no-color goes after its subcommand, so the output
# holds no colour codes.
#
# OpenTofu: when COMMAND is `tofu`, or CELYAML_CLI names the OpenTofu CLI
# (a path, or `tofu` on PATH), that CLI is used instead of Terraform: its
# directory comes first on PATH and it installs the modules. OpenTofu reads
# the same TF_CLI_CONFIG_FILE, and resolves "celyaml/celyaml" in
# dev_overrides and in required_providers alike, to
# registry.opentofu.org/celyaml/celyaml, so the same configuration serves
# both. COMMAND finds the CLI's absolute path in CELYAML_CLI. CELYAML_CLI
# may also be the path of a Terraform CLI other than the one on PATH.
#
# Example:
#   scripts/with-dev-provider.sh examples/kubernetes terraform plan -input=false
#   scripts/with-dev-provider.sh examples/kubernetes tofu plan -input=false
set -euo pipefail

if (( $# < 2 )); then
  echo "usage: $0 DIR COMMAND [ARGS...]" >&2
  exit 2
fi
dir="$1"
shift

root="$(cd "$(dirname "$0")/.." && pwd)"
if [[ ! -d "$dir" ]]; then
  echo "error: $dir is not a directory" >&2
  exit 2
fi
dir="$(cd "$dir" && pwd)"

if [[ -z "${CELYAML_CLI:-}" && "$(basename "$1")" == tofu ]]; then
  CELYAML_CLI="$1"
fi
# A path to a terraform (such as the floor scripts/build-cli.sh builds) is
# used as it is; a bare `terraform` is found by find-terraform.sh.
if [[ -n "${CELYAML_CLI:-}" && ( "$(basename "$CELYAML_CLI")" != terraform || "$CELYAML_CLI" == */* ) ]]; then
  if ! tf="$(command -v "$CELYAML_CLI")"; then
    echo "error: CELYAML_CLI=$CELYAML_CLI is not an executable (scripts/build-tofu.sh builds OpenTofu and prints its path)" >&2
    exit 1
  fi
  tf="$(cd "$(dirname "$tf")" && pwd)/$(basename "$tf")"
else
  tf="$("$root/scripts/find-terraform.sh")"
fi
tfdir="$(dirname "$tf")"
export CELYAML_CLI="$tf"

tmp="$(mktemp -d "${TMPDIR:-/tmp}/celyaml-dev.XXXXXX")"
cleanup() {
  if [[ "${KEEP_TMP:-0}" == 1 ]]; then
    echo "kept $tmp" >&2
  else
    rm -rf "$tmp"
  fi
}
trap cleanup EXIT

# go_caches_cold: true when a build would start from empty Go caches: the
# module cache lacks a dependency, or the build cache lacks its packages.
go_caches_cold() {
  local v
  v="$(awk '$1 == "github.com/google/cel-go" { print $2; exit }' "$root/go.mod")"
  [[ ! -d "$(go env GOMODCACHE)/github.com/google/cel-go@$v" ]] ||
    [[ "$(cd "$root" && go list -f '{{.Stale}}' github.com/google/cel-go/cel 2>/dev/null)" != false ]]
}

mkdir -p "$tmp/data"
bin="${CELYAML_PROVIDER_DIR:-}"
if [[ -z "$bin" ]]; then
  bin="$tmp/bin"
  mkdir -p "$bin"
  if go_caches_cold; then
    echo "==> building the provider with cold Go caches: downloads modules, then compiles for about 5 CPU-minutes (about 3 minutes on 2 idle cores, longer on a busy machine); later builds take seconds" >&2
  else
    echo "==> building the provider (go build)" >&2
  fi
  (cd "$root" && "$root/scripts/progress.sh" "go build" go build -o "$bin/terraform-provider-celyaml" .)
fi

cat >"$tmp/terraformrc" <<CONFIG
provider_installation {
  dev_overrides {
    "celyaml/celyaml" = "$bin"
  }
  direct {}
}
CONFIG

export TF_CLI_CONFIG_FILE="$tmp/terraformrc"
export TF_DATA_DIR="$tmp/data"
export CHECKPOINT_DISABLE=1
export TF_IN_AUTOMATION=1
# The CLI resolved above comes first, so COMMAND runs the same binary.
export PATH="$tfdir:$PATH"

# Work on a copy, without state or .terraform left over from a manual run.
mkdir -p "$tmp/work"
tar -C "$dir" --exclude=.terraform --exclude='*.tfstate' --exclude='*.tfstate.*' \
  --exclude=.terraform.lock.hcl -cf - . | tar -C "$tmp/work" -xf -
cd "$tmp/work"
if grep -rqsE --include='*.tf' '^[[:space:]]*module[[:space:]]+"' .; then
  # Installs local modules into TF_DATA_DIR/modules only.
  "$tf" get -no-color >/dev/null
fi

if [[ "$(basename "$1")" == terraform || "$(basename "$1")" == tofu ]] && { [[ ! -t 1 ]] || [[ "${CI:-}" == true ]]; }; then
  args=("$1")
  shift
  add=1
  for a in "$@"; do
    [[ "$a" == -no-color ]] && add=0
  done
  for a in "$@"; do
    args+=("$a")
    if ((add)) && [[ "$a" != -* ]]; then # after the subcommand
      args+=(-no-color)
      add=0
    fi
  done
  set -- "${args[@]}"
fi

status=0
"$@" || status=$?
exit "$status"
