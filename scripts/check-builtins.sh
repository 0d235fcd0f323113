#!/usr/bin/env bash
# scripts/check-builtins.sh CELYAML: checks that a built celyaml command
# carries the built-in Kubernetes kinds' schemas: `celyaml render --schemas`
# of an empty folder passes a valid Deployment and refuses one whose
# replicas is a string, naming spec.replicas and the type it wants. A binary built without them
# fails that Deployment with "this build carries no built-in schemas"
# instead. Used by scripts/install-check.sh (go install) and
# scripts/release-snapshot.sh (the release archives).
set -euo pipefail
if [[ $# -ne 1 || ! -x "$1" ]]; then
  echo "usage: $0 PATH-TO-CELYAML" >&2
  exit 2
fi
bin="$1"
work="$(mktemp -d "${TMPDIR:-/tmp}/celyaml-builtins.XXXXXX")"
trap 'rm -rf "$work"' EXIT

mkdir "$work/empty"
cat >"$work/good.yaml" <<'YAML'
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: prod}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: nginx}]}
YAML
sed -e 's/replicas: 2/replicas: two/' "$work/good.yaml" >"$work/bad.yaml"

fail() {
  echo "check-builtins: $bin: $*" >&2
  exit 1
}
out="$("$bin" render "$work/good.yaml" --schemas "$work/empty" 2>"$work/err")" ||
  fail "celyaml render --schemas EMPTY refused a valid Deployment: $(cat "$work/err")"
grep -qx 'kind: Deployment' <<<"$out" || fail "celyaml render printed no Deployment: $out"
[[ ! -s "$work/err" ]] || fail "celyaml render wrote to stderr on a valid Deployment: $(cat "$work/err")"

if "$bin" render "$work/bad.yaml" --schemas "$work/empty" >/dev/null 2>"$work/err"; then
  fail "celyaml render --schemas EMPTY accepted a Deployment whose replicas is a string: it carries no built-in schemas"
fi
# The line a server-side apply gives (the field manager's type check, as
# the API server words it), the request --schemas checks by default.
grep -qxF 'apps/Deployment/prod/web: spec.replicas: Invalid value: expected numeric (int or float), got string' "$work/err" ||
  fail "celyaml render --schemas EMPTY did not name spec.replicas's type; it said: $(cat "$work/err")"
echo "check-builtins: $bin checks a Deployment against its built-in schemas" >&2
