#!/usr/bin/env bash
# `make examples`: applies every example with the provider built from this
# checkout, through scripts/with-dev-provider.sh (dev_overrides: no
# `terraform init`, no registry, nothing written into the repository), and
# compares its outputs with the example's outputs.txt:
#
#   examples/kitchen-sink/, examples/kubernetes/, examples/overlays/,
#   examples/validation/, examples/values-layering/, examples/helm-chart/
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
#
# Every example runs twice: with Terraform, then with OpenTofu (the `tofu`
# scripts/build-tofu.sh builds, once), and both must give the same
# outputs.txt. examples/kubernetes is also planned with each, before its
# apply, and the plan must list every for_each instance by its key while the
# image is still unknown. CLIS="terraform" (or "tofu") runs one of them;
# UPDATE=1 writes the outputs of the first. CLIS="terraform-floor
# tofu-floor" runs them with the oldest Terraform and OpenTofu claimed
# (tools/terraform-floor, tools/tofu-floor, built once by
# scripts/build-cli.sh), as `make examples-floors` does.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

tmp="$(mktemp -d "${TMPDIR:-/tmp}/celyaml-examples.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

mkdir -p "$tmp/bin"
go build -o "$tmp/bin/terraform-provider-celyaml" .
export CELYAML_PROVIDER_DIR="$tmp/bin"

read -r -a clis <<<"${CLIS:-terraform tofu}"
declare -A clipath
for cli in "${clis[@]}"; do
  case "$cli" in
    terraform) clipath[$cli]=terraform ;;
    tofu) clipath[$cli]="$(scripts/build-tofu.sh)" ;;
    terraform-floor | tofu-floor) clipath[$cli]="$(scripts/build-cli.sh "tools/$cli")" ;;
    *)
      echo "error: CLIS=${CLIS:-} names $cli; it takes terraform, tofu, terraform-floor and tofu-floor" >&2
      exit 2
      ;;
  esac
done

# outputs prints every output of the applied configuration in the current
# directory, in the outputs.txt format, read with the CLI in CELYAML_CLI.
outputs() {
  local name value
  "$CELYAML_CLI" output -json | sed -nE 's/^  "([^"]+)": \{$/\1/p' | LC_ALL=C sort |
    while IFS= read -r name; do
      echo "== $name"
      value="$("$CELYAML_CLI" output -json "$name")"
      if [[ "$value" == \"* ]]; then
        "$CELYAML_CLI" output -raw "$name"
        echo
      else
        echo "$value"
      fi
    done
}
export -f outputs

# plan_keeps_keys checks, in the current directory, that the first plan of
# examples/kubernetes, with the image unknown, already lists every
# manifest by its for_each key: the keys in the outputs.txt's
# manifest_ids output.
plan_keeps_keys() {
  local want="$1" key missing=0
  "$CELYAML_CLI" plan -input=false -no-color >plan.log 2>&1 || { cat plan.log >&2; return 1; }
  grep -q 'output = (known after apply)' plan.log || { echo "the plan has no unknown image" >&2; return 1; }
  while IFS= read -r key; do
    if ! grep -qF "module.shop.terraform_data.manifest[\"$key\"] will be created" plan.log; then
      echo "the plan does not list module.shop.terraform_data.manifest[\"$key\"]" >&2
      missing=1
    fi
  done < <(sed -n '/^== manifest_ids$/{n;p;}' "$want" | tr -d '[]"' | tr ',' '\n')
  if ((missing)); then
    cat plan.log >&2
    return 1
  fi
}
export -f plan_keeps_keys

failed=()
check() { # CLI NAME DIR: apply DIR with CLI and compare with examples/NAME/outputs.txt
  local cli="$1" name="$2" dir="$3" want="$root/examples/$2/outputs.txt" got="$tmp/got.txt" plan=""
  if [[ "$name" == kubernetes ]]; then
    plan='plan_keeps_keys "$WANT"'
  fi
  if ! WANT="$want" CELYAML_CLI="${clipath[$cli]}" scripts/with-dev-provider.sh "$dir" bash -c "
      set -euo pipefail
      $plan
      "'"$CELYAML_CLI" apply -auto-approve -input=false -no-color >apply.log 2>&1 || { cat apply.log >&2; exit 1; }
      outputs' >"$got"; then
    echo "FAIL $cli $name: $cli plan or apply failed (output above)"
    failed+=("$cli:$name")
    return
  fi
  if [[ "${UPDATE:-0}" == 1 && "$cli" == "${clis[0]}" ]]; then
    cp "$got" "$want"
    echo "updated $want"
  elif [[ ! -f "$want" ]]; then
    echo "FAIL $cli $name: $want is missing (UPDATE=1 writes it)"
    failed+=("$cli:$name")
  elif ! diff -u "$want" "$got"; then
    echo "FAIL $cli $name: the outputs differ from $want (diff above)"
    failed+=("$cli:$name")
  else
    echo "ok   $cli $name"
  fi
}

for cli in "${clis[@]}"; do
  start=$SECONDS
  for name in kitchen-sink kubernetes overlays validation values-layering helm-chart; do
    check "$cli" "$name" "examples/$name"
  done
  for dir in examples/data-sources/*/ examples/functions/*/; do
    name="${dir#examples/}"
    name="${name%/}"
    work="$tmp/snippets/$cli/$name"
    mkdir -p "$work"
    cp -R "$dir". "$work/"
    rm -f "$work/outputs.txt"
    cp examples/provider/provider.tf "$work/"
    check "$cli" "$name" "$work"
  done
  echo "$cli: every example in $((SECONDS - start))s"
done

if ((${#failed[@]})); then
  echo "examples failed: ${failed[*]}"
  exit 1
fi
echo "every example applied with ${clis[*]} and gave its outputs.txt"
