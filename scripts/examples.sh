#!/usr/bin/env bash
# `make examples`: applies every example with the provider built from this
# checkout, through scripts/with-dev-provider.sh (dev_overrides: no
# `terraform init`, no registry, nothing written into the repository), and
# compares its outputs with the example's outputs.txt:
#
#   examples/kitchen-sink/, examples/kubernetes/, examples/overlays/,
#   examples/validation/, examples/values-layering/
#       the example modules, as they are;
#   examples/data-sources/*/, examples/functions/*/
#       the snippets the documentation shows, each applied with
#       examples/provider/provider.tf beside it.
#
# outputs.txt holds each output in name order: "== NAME", then the value as
# `terraform output -raw` shows a string (so YAML reads as YAML) and as
# `terraform output -json` shows anything else.
# UPDATE=1 rewrites the outputs.txt files instead; read the diff before
# committing it.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

tmp="$(mktemp -d "${TMPDIR:-/tmp}/celyaml-examples.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

mkdir -p "$tmp/bin"
go build -o "$tmp/bin/terraform-provider-celyaml" .
export CELYAML_PROVIDER_DIR="$tmp/bin"

# outputs prints every output of the applied configuration in the current
# directory, in the outputs.txt format.
outputs() {
  local name value
  terraform output -json | sed -nE 's/^  "([^"]+)": \{$/\1/p' | LC_ALL=C sort |
    while IFS= read -r name; do
      echo "== $name"
      value="$(terraform output -json "$name")"
      if [[ "$value" == \"* ]]; then
        terraform output -raw "$name"
        echo
      else
        echo "$value"
      fi
    done
}
export -f outputs

failed=()
check() { # NAME DIR: apply DIR and compare with examples/NAME/outputs.txt
  local name="$1" dir="$2" want="examples/$1/outputs.txt" got="$tmp/got.txt"
  if ! scripts/with-dev-provider.sh "$dir" bash -c '
      set -euo pipefail
      terraform apply -auto-approve -input=false -no-color >apply.log 2>&1 || { cat apply.log >&2; exit 1; }
      outputs' >"$got"; then
    echo "FAIL $name: terraform apply failed (output above)"
    failed+=("$name")
    return
  fi
  if [[ "${UPDATE:-0}" == 1 ]]; then
    cp "$got" "$want"
    echo "updated $want"
  elif [[ ! -f "$want" ]]; then
    echo "FAIL $name: $want is missing (UPDATE=1 writes it)"
    failed+=("$name")
  elif ! diff -u "$want" "$got"; then
    echo "FAIL $name: the outputs differ from $want (diff above)"
    failed+=("$name")
  else
    echo "ok   $name"
  fi
}

for name in kitchen-sink kubernetes overlays validation values-layering; do
  check "$name" "examples/$name"
done
for dir in examples/data-sources/*/ examples/functions/*/; do
  name="${dir#examples/}"
  name="${name%/}"
  work="$tmp/snippets/$name"
  mkdir -p "$work"
  cp -R "$dir". "$work/"
  rm -f "$work/outputs.txt"
  cp examples/provider/provider.tf "$work/"
  check "$name" "$work"
done

if ((${#failed[@]})); then
  echo "examples failed: ${failed[*]}"
  exit 1
fi
echo "every example applied and gave its outputs.txt"
