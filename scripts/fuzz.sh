#!/usr/bin/env bash
# Runs every Go fuzz target in the repository for a short while.
#
#   scripts/fuzz.sh [FUZZTIME]     default 20s, or $FUZZTIME
#
# Targets are found by scripts/fuzz-targets.sh, so new ones are picked up
# without editing this script. `go test -fuzz` accepts one package and one
# target at a time, hence one run per target. FUZZLANES runs (default 1)
# go on at once, each with FUZZWORKERS fuzzing workers (default: go test's,
# one per core): on 2 cores, two lanes of one worker each spend the same
# CPU as one lane of two, while each run's build and corpus replay, which
# are mostly one core's work, overlap. A run's output is printed whole
# when it ends. A failure leaves its reproducer in that package's
# testdata/fuzz/FuzzXxx/ (commit it as a regression case); no run starts
# after it, and the script fails once the runs under way have ended.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
export fuzztime="${1:-${FUZZTIME:-20s}}"
lanes="${FUZZLANES:-1}"
export FUZZWORKERS="${FUZZWORKERS:-}"

targets=()
while IFS= read -r t; do
  targets+=("$t")
done < <(scripts/fuzz-targets.sh)

if (( ${#targets[@]} == 0 )); then
  echo "no fuzz targets found"
  exit 0
fi

# fuzz_one PKG NAME fuzzes one target. Go's fuzzer can report "context
# deadline exceeded" when -fuzztime runs out while it is still minimizing
# a new input; no input failed then, and no reproducer is written. That one
# signature is retried once; a real failure (a reproducer under
# testdata/fuzz) exits 255, which stops xargs from starting more runs.
fuzz_one() {
  local pkg="$1" name="$2" log status=0
  local args=(-run '^$' -fuzz "^${name}\$" -fuzztime "$fuzztime" -fuzzminimizetime 5s)
  [[ -n "$FUZZWORKERS" ]] && args+=(-parallel "$FUZZWORKERS")
  log="$(mktemp)"
  if ! go test "$pkg" "${args[@]}" >"$log" 2>&1; then
    if grep -q 'context deadline exceeded' "$log" && ! grep -q 'Failing input written' "$log"; then
      echo "==> $name: the fuzzer stopped while minimizing, not on a failing input; running it once more" >>"$log"
      go test "$pkg" "${args[@]}" >>"$log" 2>&1 || status=1
    else
      status=1
    fi
  fi
  { echo "==> fuzz $pkg $name for $fuzztime"; cat "$log"; (( status == 0 )) || echo "==> fuzz $pkg $name FAILED"; }
  rm -f "$log"
  (( status == 0 )) || return 255
}
export -f fuzz_one

printf '%s\n' "${targets[@]}" | xargs -P "$lanes" -L 1 bash -c 'fuzz_one "$@"' _
