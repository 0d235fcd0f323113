#!/usr/bin/env bash
# Builds the OpenTofu CLI (`tofu`) pinned in tools/tofu/go.mod, the newest
# OpenTofu the provider is tested with, and prints its absolute path on
# stdout (progress goes to stderr). The acceptance tests and the examples run
# against it a second time, after Terraform.
#
#   scripts/build-tofu.sh            # builds once, then reuses the binary
#
# scripts/build-cli.sh does the work (the same for the floors,
# tools/tofu-floor and tools/terraform-floor): the binary lives in
# ${CELYAML_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/celyaml}/tofu-VERSION/tofu,
# outside the clone, built from source through the Go module proxy (several
# minutes cold, at once warm).
set -euo pipefail
exec "$(cd "$(dirname "$0")" && pwd)/build-cli.sh" tools/tofu
