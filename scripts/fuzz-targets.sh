#!/usr/bin/env bash
# Prints every Go fuzz target in the repository, one "PACKAGE TARGET" a line
# (./internal/engine FuzzRender), for scripts/fuzz.sh and scripts/fuzz-long.sh.
#
# Targets are found by grepping `func FuzzXxx(` in *_test.go files, so new
# ones are picked up without editing any script.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
while IFS= read -r file; do
  pkg="./$(dirname "${file#./}")"
  while IFS= read -r name; do
    echo "$pkg $name"
  done < <(sed -nE 's/^func (Fuzz[A-Za-z0-9_]*)\(.*/\1/p' "$file")
done < <(grep -rlE --include='*_test.go' '^func Fuzz[A-Za-z0-9_]*\(' . | grep -v '/testdata/' | LC_ALL=C sort)
