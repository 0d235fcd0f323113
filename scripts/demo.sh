#!/usr/bin/env bash
# `make demo`: renders examples/kitchen-sink (the specification's
# kitchen-sink template) with `terraform apply` and the provider built from
# this checkout, then prints the rendered YAML on stdout (progress goes to
# stderr, so `make demo > out.yaml` keeps only the YAML). The example is
# applied from a temporary copy with a temporary CLI configuration, so the
# repository stays clean.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
example="$root/examples/kitchen-sink"

exec "$root/scripts/with-dev-provider.sh" "$example" bash -c '
  set -euo pipefail
  log=apply.log # in the temporary copy
  echo "==> terraform apply on examples/kitchen-sink (a few seconds)" >&2
  # $0 is scripts/progress.sh; its lines go to stderr, the log keeps only Terraform.
  if ! "$0" "terraform apply" sh -c "terraform apply -auto-approve -input=false -no-color >$log 2>&1"; then
    cat "$log" >&2
    echo "error: terraform apply failed (output above)" >&2
    exit 1
  fi
  grep -E "^Apply complete" "$log" >&2 || true
  echo "==> manifest IDs (for_each keys) from provider::celyaml::manifests()" >&2
  terraform output -json manifest_ids | tr -d "[]\"" | tr "," "\n" | sed "s/^/    /" >&2
  echo "==> rendered YAML (terraform output -raw yaml)" >&2
  terraform output -raw yaml
' "$root/scripts/progress.sh"
