#!/usr/bin/env bash
# Prints the absolute path of the Terraform CLI that tests, docs and the demo
# use, and checks that it is new enough for provider functions (>= 1.8).
#
# Order: $TF_ACC_TERRAFORM_PATH if set, else `terraform` on PATH. Nothing is
# ever downloaded: without a usable binary this fails loudly with an install
# hint, because the acceptance tests, tfplugindocs and `make demo` all need
# a real Terraform.
set -euo pipefail

hint="install Terraform >= 1.8 from https://developer.hashicorp.com/terraform/install, or set TF_ACC_TERRAFORM_PATH"

if [[ -n "${TF_ACC_TERRAFORM_PATH:-}" ]]; then
  tf="$TF_ACC_TERRAFORM_PATH"
  if [[ ! -x "$tf" ]]; then
    echo "error: TF_ACC_TERRAFORM_PATH=$tf is not an executable file: $hint" >&2
    exit 1
  fi
elif tf="$(command -v terraform)"; then
  :
else
  echo "error: terraform not found on PATH: $hint" >&2
  exit 1
fi

case "$tf" in
  /*) ;;
  *) tf="$(cd "$(dirname "$tf")" && pwd)/$(basename "$tf")" ;;
esac

# `terraform version -json` prints {"terraform_version":"1.11.4",...}.
# CHECKPOINT_DISABLE stops the version command from calling home.
version="$(CHECKPOINT_DISABLE=1 TF_CLI_CONFIG_FILE=/dev/null "$tf" version -json 2>/dev/null \
  | sed -n 's/.*"terraform_version"[[:space:]]*:[[:space:]]*"\([0-9][0-9.]*\).*/\1/p' | head -n 1)"
if [[ -z "$version" ]]; then
  echo "error: could not read the version of $tf: $hint" >&2
  exit 1
fi
major="${version%%.*}"
rest="${version#*.}"
minor="${rest%%.*}"
if (( major < 1 || (major == 1 && minor < 8) )); then
  echo "error: $tf is Terraform $version; provider functions need 1.8 or later: $hint" >&2
  exit 1
fi

echo "$tf"
