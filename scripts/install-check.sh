#!/usr/bin/env bash
# The README's install section, tried as a new user would: `go install` of
# the celyaml command into an empty GOPATH (only the module cache and the
# build cache are shared, so nothing but the Go module proxy is reached),
# from a copy of the files git tracks (what a fresh clone or the module zip
# holds: nothing generated, nothing git-ignored), then `celyaml render
# --schemas` of an empty folder on Deployments, which only the built-in
# schemas committed in internal/validate/builtin/data/ can check
# (scripts/check-builtins.sh).
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

"$root/scripts/check-builtins.sh" "$bin"
