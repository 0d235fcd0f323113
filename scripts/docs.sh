#!/usr/bin/env bash
# Generates or checks docs/ with tfplugindocs, fully offline.
#
#   scripts/docs.sh generate   rewrite docs/ from templates/, examples/ and the schema
#   scripts/docs.sh check      regenerate into a temporary copy, fail if docs/ differs,
#                              and run `tfplugindocs validate`
#
# tfplugindocs left to itself builds the provider and looks for `terraform`
# on PATH, downloading the latest release when none is found (and always
# when --tf-version is given). To make a download impossible, this script
# reads the schema itself: it builds the provider once into a local plugin
# directory, runs `terraform init -plugin-dir` (no registry access) and
# `terraform providers schema -json`, and hands the JSON to tfplugindocs with
# --providers-schema, which then neither builds nor runs Terraform.
set -euo pipefail

mode="${1:-generate}"
case "$mode" in
  generate | check) ;;
  *)
    echo "usage: $0 generate|check" >&2
    exit 2
    ;;
esac

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
tf="$(scripts/find-terraform.sh)"

tmp="$(mktemp -d "${TMPDIR:-/tmp}/celyaml-docs.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

# tfplugindocs looks the schema up under "registry.terraform.io/hashicorp/<name>",
# so the throwaway configuration uses that address, as tfplugindocs itself does.
platform="$(go env GOOS)_$(go env GOARCH)"
plugin="$tmp/plugins/registry.terraform.io/hashicorp/celyaml/0.0.1/$platform"
mkdir -p "$plugin" "$tmp/ws"
go build -o "$plugin/terraform-provider-celyaml" .
cat >"$tmp/ws/main.tf" <<'HCL'
terraform {
  required_providers {
    celyaml = {
      source = "hashicorp/celyaml"
    }
  }
}

provider "celyaml" {}
HCL
: >"$tmp/empty.tfrc"
(
  cd "$tmp/ws"
  # An empty CLI config, so a developer's dev_overrides or mirrors do not apply.
  export TF_CLI_CONFIG_FILE="$tmp/empty.tfrc" CHECKPOINT_DISABLE=1 TF_IN_AUTOMATION=1
  "$tf" init -input=false -no-color -backend=false -plugin-dir="$tmp/plugins" >"$tmp/init.log" 2>&1 ||
    { cat "$tmp/init.log" >&2; exit 1; }
  "$tf" providers schema -json >"$tmp/schema.json"
)

# Runs tfplugindocs quietly (it logs every file at DEBUG level); prints its
# log only when it fails.
tfplugindocs() {
  if ! go run github.com/hashicorp/terraform-plugin-docs/cmd/tfplugindocs "$@" >"$tmp/tfplugindocs.log" 2>&1; then
    cat "$tmp/tfplugindocs.log" >&2
    echo "error: tfplugindocs $1 failed (log above)" >&2
    exit 1
  fi
}

if [[ "$mode" == generate ]]; then
  tfplugindocs generate --provider-name celyaml --providers-schema "$tmp/schema.json"
  tfplugindocs validate --provider-name celyaml --providers-schema "$tmp/schema.json"
  echo "docs/ regenerated and validated: $(find docs -name '*.md' | wc -l | tr -d ' ') pages"
  exit 0
fi

# check: render from a copy of the sources, so the working tree is never touched.
copy="$tmp/copy"
mkdir -p "$copy"
tar -C "$root" --exclude=./.git --exclude=./docs --exclude=./dist --exclude=./bench/out -cf - . | tar -C "$copy" -xf -
tfplugindocs generate --provider-name celyaml --providers-schema "$tmp/schema.json" --provider-dir "$copy"
if ! diff -ru --exclude='.*' docs "$copy/docs"; then
  echo >&2
  echo "error: docs/ is out of date with templates/, examples/ or the provider schema; run 'make docs' and commit docs/" >&2
  exit 1
fi
tfplugindocs validate --provider-name celyaml --providers-schema "$tmp/schema.json"
echo "docs/ is up to date"
