#!/usr/bin/env bash
# Runs every Go fuzz target in the repository for a short while.
#
#   scripts/fuzz.sh [FUZZTIME]     default 20s, or $FUZZTIME
#
# Targets are found by scripts/fuzz-targets.sh, so new ones are picked up
# without editing this script. `go test -fuzz` accepts one
# package and one target at a time, hence the loop. A failure leaves its
# reproducer in that package's testdata/fuzz/FuzzXxx/ (commit it as a
# regression case) and stops the script.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
fuzztime="${1:-${FUZZTIME:-20s}}"

targets=()
while IFS= read -r t; do
  targets+=("$t")
done < <(scripts/fuzz-targets.sh)

if (( ${#targets[@]} == 0 )); then
  echo "no fuzz targets found"
  exit 0
fi

for t in "${targets[@]}"; do
  read -r pkg name <<<"$t"
  echo "==> fuzz $pkg $name for $fuzztime"
  # Go's fuzzer can report "context deadline exceeded" when -fuzztime runs
  # out while it is still minimizing a new input; no input failed then, and
  # no reproducer is written. That one signature is retried once; a real
  # failure (a reproducer under testdata/fuzz) stops the script.
  log="$(mktemp)"
  if ! go test "$pkg" -run '^$' -fuzz "^${name}\$" -fuzztime "$fuzztime" -fuzzminimizetime 5s 2>&1 | tee "$log"; then
    if grep -q 'context deadline exceeded' "$log" && ! grep -q 'Failing input written' "$log"; then
      echo "==> $name: the fuzzer stopped while minimizing, not on a failing input; running it once more"
      go test "$pkg" -run '^$' -fuzz "^${name}\$" -fuzztime "$fuzztime" -fuzzminimizetime 5s
    else
      rm -f "$log"
      exit 1
    fi
  fi
  rm -f "$log"
done
