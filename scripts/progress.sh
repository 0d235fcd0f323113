#!/usr/bin/env bash
# Progress lines for long steps, as plain text on stderr (no terminal
# needed: a pipe, a file or a CI log shows them as they come).
#
#   scripts/progress.sh "WHAT" COMMAND [ARGS...]
#
# runs COMMAND and, while it runs, prints "    ... WHAT: still running
# (N s)" every PROGRESS_EVERY seconds (default 30), then "    WHAT: done in
# N s" (or "failed after N s"). COMMAND's own output and exit status pass
# through unchanged. Sourcing the file defines the same as the function
# `progress`.
progress() {
  local what="$1" start every="${PROGRESS_EVERY:-30}" status=0 beat
  shift
  start="$(date +%s)"
  (
    n=0
    while sleep 1; do
      n=$((n + 1))
      if ((n % every == 0)); then
        echo "    ... $what: still running ($(($(date +%s) - start)) s)" >&2
      fi
    done
  ) &
  beat=$!
  "$@" || status=$?
  kill "$beat" 2>/dev/null || true
  wait "$beat" 2>/dev/null || true
  if ((status == 0)); then
    echo "    $what: done in $(($(date +%s) - start)) s" >&2
  else
    echo "    $what: failed after $(($(date +%s) - start)) s" >&2
  fi
  return "$status"
}

if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
  set -euo pipefail
  if (($# < 2)); then
    echo "usage: $0 WHAT COMMAND [ARGS...]" >&2
    exit 2
  fi
  progress "$@"
fi
