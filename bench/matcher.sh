#!/usr/bin/env bash
# Output matching throughput: about 1 GiB of log lines written to stderr by
# the command, through retry under three --retry-if rules, against the same
# bytes through cat (producer | cat > /dev/null). Prints throughput and
# retry's peak RSS (GNU time -v). Usage: bench/matcher.sh [MiB] [runs]
set -euo pipefail
cd "$(dirname "$0")/.."

mib=${1:-1024}
runs=${2:-3}
command -v /usr/bin/time >/dev/null || { echo "needs GNU time: apt-get install time" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/retry" .

# One MiB of varied log lines, repeated: none matches the rules below.
awk 'BEGIN {
  n = 0
  while (n < 1048576) {
    if (NR % 50 == 0) l = "    at com.example.service.Handler.process(Handler.java:123) caused by upstream latency"
    else l = sprintf("2026-11-30T07:00:%02d.%03dZ INFO request id=%d path=/api/v1/items/%d status=200 bytes=%d took=%dms", NR % 60, NR % 1000, NR, NR * 7, NR * 13 % 9000, NR % 97)
    NR++
    if (n + length(l) + 1 > 1048576) break
    print l; n += length(l) + 1
  }
}' >"$work/chunk"
for _ in $(seq "$mib"); do cat "$work/chunk"; done >"$work/data"
bytes=$(wc -c <"$work/data")

rules=(--retry-if 'connection refused' --retry-if '(?i)timed out' --retry-if 'HTTP/[0-9.]+ 50[234] ')

# run NAME COMMAND...: time COMMAND runs times; print the best.
run() {
  local name=$1; shift
  local best_s="" best_rss=""
  for _ in $(seq "$runs"); do
    /usr/bin/time -v -o "$work/time" "$@"
    local s rss
    s=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); t = 0; for (i = 1; i <= n; i++) t = t * 60 + p[i]; print t }' "$work/time")
    rss=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$work/time")
    if [ -z "$best_s" ] || awk -v a="$s" -v b="$best_s" 'BEGIN { exit !(a < b) }'; then best_s=$s; best_rss=$rss; fi
  done
  awk -v name="$name" -v b="$bytes" -v s="$best_s" -v rss="$best_rss" \
    'BEGIN { printf "%-44s %7.2f s %8.0f MiB/s %7.1f MiB peak RSS\n", name, s, b / s / 1048576, rss / 1024 }'
}

echo "$((bytes / 1048576)) MiB of log lines through stderr, best of $runs, $(nproc) cores"
run "cat (producer | cat > /dev/null)" sh -c 'cat "$1" | cat >/dev/null' sh "$work/data"
run "retry, three --retry-if rules" "$work/retry" -a 1 "${rules[@]}" -- sh -c 'cat "$1" >&2' sh "$work/data" 2>/dev/null
run "retry, --no-hints, no rules (stderr untouched)" "$work/retry" -a 1 --no-hints -- sh -c 'cat "$1" >&2' sh "$work/data" 2>/dev/null
