#!/usr/bin/env bash
# `make demo`: renders examples/kitchen-sink (the specification's
# kitchen-sink template) with `terraform apply` and the provider built from
# this checkout, then prints the rendered YAML. State, plugin cache and CLI
# configuration live in a temporary directory, so the repository stays clean.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
example="$root/examples/kitchen-sink"

echo "==> building the provider and applying examples/kitchen-sink" >&2
exec "$root/scripts/with-dev-provider.sh" "$example" bash -c '
  set -euo pipefail
  log="$(dirname "$TF_STATE")/apply.log"
  if ! terraform apply -auto-approve -input=false -no-color -state="$TF_STATE" >"$log" 2>&1; then
    cat "$log" >&2
    echo "error: terraform apply failed (output above)" >&2
    exit 1
  fi
  grep -E "^Apply complete" "$log" >&2 || true
  echo "==> manifest IDs (for_each keys) from provider::celyaml::manifests()" >&2
  terraform output -state="$TF_STATE" -json manifest_ids | tr -d "[]\"" | tr "," "\n" | sed "s/^/    /" >&2
  echo "==> rendered YAML (terraform output -raw yaml)" >&2
  terraform output -state="$TF_STATE" -raw yaml
'
