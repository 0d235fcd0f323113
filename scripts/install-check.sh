#!/usr/bin/env bash
# The README's install section, tried as a new user would: `go install` of
# the celyaml command into an empty GOPATH (only the module cache and the
# build cache are shared, so nothing but the Go module proxy is reached),
# from a copy of the files git tracks (what a fresh clone or the module zip
# holds: nothing generated, nothing git-ignored), then `celyaml render
# --schemas` of an empty folder on Deployments, which only the built-in
# schemas committed in internal/validate/builtin/data/ can check. A binary
# built without them fails the bad Deployment with "this build carries no
# built-in schemas" instead of naming its mistake.
#
#   scripts/install-check.sh      (CI: .ci/run's install step)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

gopath="$(mktemp -d "${TMPDIR:-/tmp}/celyaml-gopath.XXXXXX")"
work="$(mktemp -d "${TMPDIR:-/tmp}/celyaml-install.XXXXXX")"
trap 'chmod -R u+w "$gopath" 2>/dev/null; rm -rf "$gopath" "$work"' EXIT

# Tracked files, and new files not yet committed unless git ignores them.
mkdir "$work/src"
git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' f; do
  [[ -e "$f" ]] && printf '%s\0' "$f"
done | xargs -0 cp --parents -t "$work/src"

echo "install-check: GOPATH=$gopath go install ./cmd/celyaml, from the files git tracks" >&2
(cd "$work/src" && GOPATH="$gopath" GOMODCACHE="$(go env GOMODCACHE)" GOFLAGS="-mod=mod -trimpath" GOBIN= go install ./cmd/celyaml)
bin="$gopath/bin/celyaml"
[[ -x "$bin" ]] || { echo "install-check: go install wrote no $bin" >&2; exit 1; }

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
  echo "install-check: $*" >&2
  exit 1
}
out="$("$bin" render "$work/good.yaml" --schemas "$work/empty" 2>"$work/err")" ||
  fail "celyaml render --schemas EMPTY refused a valid Deployment: $(cat "$work/err")"
grep -qx 'kind: Deployment' <<<"$out" || fail "celyaml render printed no Deployment: $out"
[[ ! -s "$work/err" ]] || fail "celyaml render wrote to stderr on a valid Deployment: $(cat "$work/err")"

if "$bin" render "$work/bad.yaml" --schemas "$work/empty" >/dev/null 2>"$work/err"; then
  fail "celyaml render --schemas EMPTY accepted a Deployment whose replicas is a string: the installed command carries no built-in schemas"
fi
grep -q 'spec.replicas' "$work/err" && grep -q 'integer' "$work/err" ||
  fail "celyaml render --schemas EMPTY did not name spec.replicas's type; it said: $(cat "$work/err")"
echo "install-check: the command go install builds checks a Deployment against its built-in schemas" >&2
