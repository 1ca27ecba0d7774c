#!/usr/bin/env bash
# Stdin replay throughput: 1 GiB through a pipe into the command, through
# retry (--stdin replay, the default for a pipe: spooled to a temporary
# file as the attempt reads it) against the same pipe into cat alone. A
# second case makes the first attempt fail after reading everything, so
# the second attempt replays the whole spool. Prints wall time, throughput
# and peak RSS (GNU time -v), best of several runs.
# Usage: bench/stdin.sh [MiB] [runs]
set -euo pipefail
cd "$(dirname "$0")/.."

mib=${1:-1024}
runs=${2:-3}
command -v /usr/bin/time >/dev/null || { echo "needs GNU time: apt-get install time" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/retry" .
bytes=$((mib * 1048576))
export TMPDIR="$work" # the spool goes here; checked empty at the end

# run NAME ATTEMPTS COMMAND...: feed bytes of zeros through a pipe into
# COMMAND, time the consumer runs times; print the best. The producer is
# dd with 1 MiB blocks, cheaper than any consumer.
run() {
  local name=$1 attempts=$2; shift 2
  local best_s="" best_rss=""
  for _ in $(seq "$runs"); do
    dd if=/dev/zero bs=1M count="$mib" status=none | /usr/bin/time -v -o "$work/time" "$@"
    local s rss
    s=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); t = 0; for (i = 1; i <= n; i++) t = t * 60 + p[i]; print t }' "$work/time")
    rss=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$work/time")
    if [ -z "$best_s" ] || awk -v a="$s" -v b="$best_s" 'BEGIN { exit !(a < b) }'; then best_s=$s; best_rss=$rss; fi
  done
  awk -v name="$name" -v b="$bytes" -v n="$attempts" -v s="$best_s" -v rss="$best_rss" \
    'BEGIN { printf "%-52s %6.2f s %7.0f MiB/s %7.1f MiB peak RSS\n", name, s, n * b / s / 1048576, rss / 1024 }'
}

echo "$mib MiB through a pipe, best of $runs, $(nproc) cores; MiB/s counts the bytes every attempt read"
run "cat alone (producer | cat > /dev/null)" 1 sh -c 'exec cat >/dev/null'
run "retry -- cat (one attempt, spooled as it streams)" 1 "$work/retry" -a 1 -- sh -c 'exec cat >/dev/null'
run "retry, attempt 2 replays the whole spool" 2 "$work/retry" -q -a 2 --delay 1ms -- sh -c 'cat >/dev/null; [ "$RETRY_ATTEMPT" = 2 ]'
run "retry --stdin inherit -- cat (no spool)" 1 "$work/retry" -a 1 --stdin inherit -- sh -c 'exec cat >/dev/null'
if [ -n "$(ls -A "$work" | grep -v -e '^retry$' -e '^time$')" ]; then
  echo "left behind in TMPDIR:" >&2; ls -la "$work" >&2; exit 1
fi
