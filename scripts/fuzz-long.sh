#!/usr/bin/env bash
# The long fuzz run: every Go fuzz target for DURATION each, not in CI.
#
#   scripts/fuzz-long.sh DURATION [PATTERN]
#
#   DURATION  as go test -fuzztime takes it: 2h, 30m, or 10000000x (a count
#             of executions)
#   PATTERN   only the targets whose "PACKAGE TARGET" line matches this
#             extended regular expression (FuzzCodec, or ./internal/engine)
#   FUZZ_PARALLEL  fuzzing processes per target (go test -parallel;
#             default: one per CPU)
#
# Targets are those scripts/fuzz-targets.sh finds. At the end a table gives
# each target's executions, as go's last "fuzz: elapsed: …, execs: N" line
# reports them, and its result. The corpus the fuzzer grows is kept in go's
# cache, $(go env GOCACHE)/fuzz/<module>/<package>/<target>/, and each run
# starts from it, so runs add up. A crasher is written by go to the
# package's testdata/fuzz/<target>/; this script stages it (git add) and
# names it, and carries on with the next target: commit it with the fix,
# and `go test` runs it as a regression case from then on. The exit code is
# 1 when any target failed.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
if (( $# < 1 )); then
  sed -n '2,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
  exit 2
fi
duration="$1"
pattern="${2:-.}"
parallel=()
[[ -n "${FUZZ_PARALLEL:-}" ]] && parallel=(-parallel "$FUZZ_PARALLEL")

mapfile -t targets < <(scripts/fuzz-targets.sh | grep -E -- "$pattern" || true)
if (( ${#targets[@]} == 0 )); then
  echo "no fuzz targets match $pattern" >&2
  exit 2
fi

cache="$(go env GOCACHE)/fuzz/$(go list -m)"
logs="$(mktemp -d)"
trap 'rm -rf "$logs"' EXIT
rows=()
crashers=()
failed=0
for t in "${targets[@]}"; do
  read -r pkg name <<<"$t"
  echo "==> fuzz $pkg $name for $duration"
  log="$logs/$name.log"
  before="$(git status --porcelain --untracked-files=all -- "$pkg/testdata/fuzz/$name" 2>/dev/null || true)"
  result=ok
  if ! go test "$pkg" -run '^$' -fuzz "^${name}\$" -fuzztime "$duration" -fuzzminimizetime 30s "${parallel[@]}" 2>&1 | tee "$log"; then
    # Go's fuzzer can stop with "context deadline exceeded" while it is
    # still minimizing a new input when the time runs out: no input failed.
    if grep -q 'context deadline exceeded' "$log" && ! grep -q 'Failing input written' "$log"; then
      result="ok (stopped while minimizing)"
    else
      result=FAILED
      failed=1
    fi
  fi
  while IFS= read -r f; do
    [[ -n "$f" ]] || continue
    git add -- "$f"
    crashers+=("$f")
    result="FAILED: crasher $f"
  done < <(comm -13 <(echo "$before") <(git status --porcelain --untracked-files=all -- "$pkg/testdata/fuzz/$name" 2>/dev/null || true) | sed -nE 's/^\?\? //p')
  last="$(grep -E '^fuzz: elapsed: ' "$log" | tail -n 1 || true)"
  execs="$(sed -nE 's/.*execs: ([0-9]+) .*/\1/p' <<<"$last")"
  # The rate on that line is the last three seconds'; the table gives the
  # run's average, execs over elapsed (go writes elapsed as 1h2m3s).
  rate="$(sed -nE 's/^fuzz: elapsed: ([0-9hms]+),.*/\1/p' <<<"$last" |
    awk -v n="${execs:-0}" '{ s = 0; t = $0
      while (match(t, /^[0-9]+[hms]/)) { v = substr(t, 1, RLENGTH - 1); u = substr(t, RLENGTH, 1)
        s += v * (u == "h" ? 3600 : u == "m" ? 60 : 1); t = substr(t, RLENGTH + 1) }
      if (s > 0) printf "%d", n / s }')"
  [[ -n "$execs" ]] || rate=""
  corpus="$(sed -nE 's/.*\(total: ([0-9]+)\).*/\1/p' <<<"$last")"
  rows+=("$(printf '%-42s %-18s %12s %9s %8s  %s' "${pkg#./}" "$name" "${execs:--}" "${rate:--}" "${corpus:--}" "$result")")
done

echo
printf '%-42s %-18s %12s %9s %8s  %s\n' package target execs "execs/s" corpus result
printf '%s\n' "${rows[@]}"
echo
echo "corpus kept in $cache/<package>/<target>/"
if (( ${#crashers[@]} > 0 )); then
  echo "crashers, staged as regression cases (commit them with the fix):"
  printf '  %s\n' "${crashers[@]}"
fi
exit "$failed"
